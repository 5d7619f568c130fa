from dataclasses import dataclass


@dataclass(frozen=True)
class Zone:
    name: str
    low: int
    high: int

    def covers(self, floor):
        return self.low <= floor <= self.high


class ZoneMap:
    """Which cars may serve which floors (express cars skip the middle of the tower)."""

    def __init__(self):
        self._zones = {}
        self._cars = {}

    def add_zone(self, name, low, high):
        if low > high:
            raise ValueError(f"zone {name}: {low} > {high}")
        self._zones[name] = Zone(name, low, high)

    def restrict(self, car_name, *zone_names):
        for z in zone_names:
            if z not in self._zones:
                raise KeyError(f"unknown zone {z}")
        self._cars[car_name] = tuple(zone_names)

    def serves(self, car_name, floor):
        zones = self._cars.get(car_name)
        if zones is None:
            return True
        return any(self._zones[z].covers(floor) for z in zones)

    def zone_of(self, floor):
        for zone in self._zones.values():
            if zone.covers(floor):
                return zone.name
        return None

    def describe(self):
        out = {}
        for car, zones in sorted(self._cars.items()):
            out[car] = [f"{self._zones[z].low}-{self._zones[z].high}" for z in zones]
        return out

    def lobby_floors(self):
        return sorted({z.low for z in self._zones.values()})
