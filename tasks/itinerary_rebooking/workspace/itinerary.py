"""Bookings (PNRs): passengers, flight legs, and each passenger's seat on each leg."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Passenger:
    name: str
    frequent_flyer: str = ""


@dataclass
class Leg:
    flight: str
    origin: str
    dest: str
    depart: str
    fare_class: str
    seats: dict = field(default_factory=dict)
    bags: dict = field(default_factory=dict)

    def route(self):
        return f"{self.origin}-{self.dest}"


@dataclass
class Itinerary:
    pnr: str
    passengers: list
    legs: list
    history: list = field(default_factory=list)

    def passenger(self, name):
        for p in self.passengers:
            if p.name == name:
                return p
        raise KeyError(f"{self.pnr}: no passenger {name!r}")

    def clone(self, pnr=None):
        return Itinerary(pnr or self.pnr, list(self.passengers), list(self.legs), list(self.history))

    def seat_map(self):
        return {leg.flight: dict(leg.seats) for leg in self.legs}

    def summary(self):
        names = ", ".join(p.name for p in self.passengers)
        return f"{self.pnr} [{names}] " + " / ".join(f"{l.flight} {l.route()} {l.depart}" for l in self.legs)
