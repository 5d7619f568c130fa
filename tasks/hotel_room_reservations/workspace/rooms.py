"""Room inventory for a single property."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Room:
    number: str
    kind: str
    nightly_rate_cents: int
    capacity: int


class RoomInventory:
    def __init__(self, rooms):
        self._rooms = {room.number: room for room in rooms}

    def get(self, number):
        try:
            return self._rooms[number]
        except KeyError:
            raise KeyError(f"no room {number!r}") from None

    def of_kind(self, kind, guests=1):
        """Rooms of `kind` that sleep at least `guests`, cheapest first."""
        rooms = [r for r in self._rooms.values() if r.kind == kind and r.capacity >= guests]
        return sorted(rooms, key=lambda r: (r.nightly_rate_cents, r.number))
