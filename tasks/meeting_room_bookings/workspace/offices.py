"""The offices and their rooms: capacity, equipment and the hours each office is open."""
from dataclasses import dataclass, field
from datetime import time, tzinfo


class UnknownRoom(LookupError):
    pass


class OutsideOfficeHours(ValueError):
    pass


@dataclass(frozen=True)
class Office:
    name: str
    tz: tzinfo
    opens: time = time(7, 0)
    closes: time = time(20, 0)


@dataclass(frozen=True)
class Room:
    name: str
    office: str
    capacity: int
    equipment: frozenset = field(default_factory=frozenset)


class Directory:
    def __init__(self, offices, rooms):
        self.offices = {o.name: o for o in offices}
        self.rooms = {}
        for room in rooms:
            if room.office not in self.offices:
                raise ValueError(f"room {room.name} is in unknown office {room.office!r}")
            self.rooms[room.name] = room

    def room(self, name):
        try:
            return self.rooms[name]
        except KeyError:
            raise UnknownRoom(f"no room called {name!r}") from None

    def office_of(self, room_name):
        return self.offices[self.room(room_name).office]

    def check(self, booking, attendees=1, needs=()):
        room = self.room(booking.room)
        office = self.offices[room.office]
        if attendees > room.capacity:
            raise ValueError(f"{room.name} seats {room.capacity}, not {attendees}")
        missing = set(needs) - room.equipment
        if missing:
            raise ValueError(f"{room.name} has no {', '.join(sorted(missing))}")
        start, end = booking.start.astimezone(office.tz), booking.end.astimezone(office.tz)
        if start.date() != end.date() or start.time() < office.opens or end.time() > office.closes:
            raise OutsideOfficeHours(f"{room.name} is open {office.opens:%H:%M}-{office.closes:%H:%M} {office.name} time")

    def rooms_for(self, attendees, needs=()):
        return sorted(r.name for r in self.rooms.values() if r.capacity >= attendees and set(needs) <= r.equipment)
