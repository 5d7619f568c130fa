import threading
from dataclasses import dataclass
from decimal import Decimal

from desks import Desk
from pricing import cancellation_fee, price

SLOTS = ("am", "pm", "day")


class BookingConflict(Exception):
    pass


@dataclass
class Booking:
    ref: str
    desk: str
    day: str
    slot: str
    member: str
    amount: Decimal
    status: str = "confirmed"

    def covers(self, slot):
        return self.slot == "day" or slot == "day" or self.slot == slot


class BookingBook:
    def __init__(self, desks):
        self.desks = {d.code: d for d in desks}
        self.bookings = {}
        self._lock = threading.Lock()
        self._seq = 0
        self.fees = Decimal("0.00")

    def _clashes(self, desk, day, slot):
        return [b for b in self.bookings.values()
                if b.desk == desk and b.day == day and b.status == "confirmed" and b.covers(slot)]

    def book(self, desk_code, day, slot, member, is_member=False):
        if slot not in SLOTS:
            raise ValueError(f"slot must be one of {SLOTS}")
        desk: Desk = self.desks[desk_code]
        with self._lock:
            if self._clashes(desk_code, day, slot):
                raise BookingConflict(f"{desk_code} is taken on {day} ({slot})")
            self._seq += 1
            ref = f"BK{self._seq:04d}"
            self.bookings[ref] = Booking(ref, desk_code, day, slot, member, price(desk, slot, is_member))
            return ref

    def cancel(self, ref, hours_before):
        self._lock.acquire()
        try:
            booking = self.bookings.get(ref)
            if booking is None or booking.status != "confirmed":
                return None
            fee = cancellation_fee(booking.amount, hours_before)
            booking.status = "cancelled"
            self.fees += fee
            self._lock.release()
            return fee
        finally:
            self._lock.release()

    def free_desks(self, day, slot, wanted=()):
        with self._lock:
            return sorted(code for code, desk in self.desks.items()
                          if desk.has(wanted) and not self._clashes(code, day, slot))

    def for_member(self, member):
        with self._lock:
            return sorted(b.ref for b in self.bookings.values() if b.member == member and b.status == "confirmed")
