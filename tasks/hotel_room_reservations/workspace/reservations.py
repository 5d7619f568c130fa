"""Reservation book: assigns rooms to stays without double-booking any night."""

import itertools
from dataclasses import dataclass

from stay import Stay


class RoomUnavailable(Exception):
    pass


@dataclass(frozen=True)
class Reservation:
    confirmation: str
    guest: str
    room_number: str
    stay: Stay
    total_cents: int


class ReservationBook:
    def __init__(self, inventory):
        self._inventory = inventory
        self._by_room = {}
        self._ids = itertools.count(1)

    def is_free(self, room_number, stay):
        return not any(r.stay.overlaps(stay) for r in self._by_room.get(room_number, []))

    def book(self, guest, room_number, stay):
        room = self._inventory.get(room_number)
        if not self.is_free(room_number, stay):
            raise RoomUnavailable(f"room {room_number} is taken for part of {stay.check_in}..{stay.check_out}")
        reservation = Reservation(
            confirmation=f"R{next(self._ids):05d}",
            guest=guest,
            room_number=room_number,
            stay=stay,
            total_cents=room.nightly_rate_cents * stay.nights,
        )
        self._by_room.setdefault(room_number, []).append(reservation)
        return reservation

    def book_any(self, guest, kind, stay, guests=1):
        """Book the cheapest free room of `kind` for the whole stay."""
        for room in self._inventory.of_kind(kind, guests):
            if self.is_free(room.number, stay):
                return self.book(guest, room.number, stay)
        raise RoomUnavailable(f"no {kind} room free for {stay.check_in}..{stay.check_out}")

    def occupancy(self, day):
        """Room numbers occupied on the night of `day`."""
        return sorted(n for n, rs in self._by_room.items() if any(r.stay.contains(day) for r in rs))
