import math
from dataclasses import dataclass


class StationError(ValueError):
    pass


@dataclass
class Station:
    code: str
    name: str
    lat: float
    lon: float
    capacity: int
    bikes: int
    ebikes: int
    online: bool = True
    accepts_returns: bool = True

    def __post_init__(self):
        if self.bikes + self.ebikes > self.capacity:
            raise StationError(f"{self.code}: more bikes than docks")
        if min(self.bikes, self.ebikes, self.capacity) < 0:
            raise StationError(f"{self.code}: negative counts")

    @property
    def free_docks(self):
        return self.capacity - self.bikes - self.ebikes

    def can_rent(self, electric=False):
        if not self.online:
            return False
        return (self.ebikes if electric else self.bikes + self.ebikes) > 0

    def can_return(self):
        return self.online and self.accepts_returns and self.free_docks > 0


def distance_km(lat1, lon1, lat2, lon2):
    r = 6371.0
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


def bounding_box(stations):
    if not stations:
        raise StationError("no stations")
    lats = [s.lat for s in stations]
    lons = [s.lon for s in stations]
    return (min(lats), min(lons), max(lats), max(lons))


def fill_ratio(station):
    return round((station.bikes + station.ebikes) / station.capacity, 2)
