"""The airline's published schedule: which flights fly a route, and when."""
from dataclasses import dataclass


@dataclass(frozen=True)
class ScheduledFlight:
    flight: str
    origin: str
    dest: str
    depart: str
    seats_left: dict


class Schedule:
    def __init__(self, flights):
        self._flights = {f.flight: f for f in flights}

    def get(self, flight):
        try:
            return self._flights[flight]
        except KeyError:
            raise KeyError(f"flight {flight} is not in the schedule") from None

    def alternatives(self, origin, dest, fare_class, exclude=()):
        out = [f for f in self._flights.values()
               if f.origin == origin and f.dest == dest and f.flight not in exclude and f.seats_left.get(fare_class, 0) > 0]
        return sorted(out, key=lambda f: f.depart)
