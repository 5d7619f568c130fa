from collections import deque
from dataclasses import dataclass

from bookings import BookingBook, BookingConflict


@dataclass(frozen=True)
class Wish:
    member: str
    day: str
    slot: str
    features: tuple = ()
    is_member: bool = False


class Waitlist:
    """Members waiting for a desk; offered one in order whenever a booking is cancelled."""

    def __init__(self, book: BookingBook):
        self.book = book
        self.queue = deque()
        self.offers = []

    def join(self, wish: Wish):
        if any(w.member == wish.member and w.day == wish.day for w in self.queue):
            raise ValueError(f"{wish.member} is already waiting for {wish.day}")
        self.queue.append(wish)
        return len(self.queue)

    def position(self, member, day):
        for i, w in enumerate(self.queue, start=1):
            if w.member == member and w.day == day:
                return i
        return None

    def cancel_and_offer(self, ref, hours_before):
        fee = self.book.cancel(ref, hours_before)
        if fee is None:
            return None, []
        placed = []
        for wish in list(self.queue):
            free = self.book.free_desks(wish.day, wish.slot, wish.features)
            if not free:
                continue
            try:
                new_ref = self.book.book(free[0], wish.day, wish.slot, wish.member, wish.is_member)
            except BookingConflict:
                continue
            self.queue.remove(wish)
            placed.append((wish.member, new_ref))
            self.offers.append((wish.member, free[0], wish.day))
        return fee, placed
