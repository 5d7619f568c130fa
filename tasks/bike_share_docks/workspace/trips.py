from dataclasses import dataclass
from decimal import Decimal

from stations import distance_km

UNLOCK_FEE = Decimal("1.00")
PER_MINUTE = {False: Decimal("0.05"), True: Decimal("0.15")}
DAILY_CAP = Decimal("15.00")


class TripError(RuntimeError):
    pass


@dataclass
class Trip:
    rider: str
    origin: str
    electric: bool
    started_min: int
    destination: str | None = None
    ended_min: int | None = None

    def minutes(self):
        if self.ended_min is None:
            raise TripError("trip still running")
        return self.ended_min - self.started_min


class TripDesk:
    def __init__(self, stations):
        self.stations = {s.code: s for s in stations}
        self.active = {}
        self.finished = []

    def start(self, rider, code, now_min, electric=False):
        if rider in self.active:
            raise TripError(f"{rider} already has a bike")
        station = self.stations[code]
        if not station.can_rent(electric):
            raise TripError(f"no {'e-bike' if electric else 'bike'} available at {code}")
        if electric or station.bikes == 0:
            station.ebikes -= 1
            electric = True
        else:
            station.bikes -= 1
        self.active[rider] = Trip(rider, code, electric, now_min)
        return self.active[rider]

    def end(self, rider, code, now_min):
        trip = self.active.get(rider)
        if trip is None:
            raise TripError(f"{rider} has no bike")
        station = self.stations[code]
        if not station.can_return():
            raise TripError(f"cannot return at {code}")
        del self.active[rider]
        if trip.electric:
            station.ebikes += 1
        else:
            station.bikes += 1
        trip.destination, trip.ended_min = code, now_min
        self.finished.append(trip)
        return fare(trip)

    def distance(self, trip):
        a, b = self.stations[trip.origin], self.stations[trip.destination]
        return round(distance_km(a.lat, a.lon, b.lat, b.lon), 2)


def fare(trip):
    return min(DAILY_CAP, UNLOCK_FEE + PER_MINUTE[trip.electric] * trip.minutes())
