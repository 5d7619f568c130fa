"""Boat bookings: seats per boat, and each diver's certification limits the depth they may dive."""
from dataclasses import dataclass, field

MAX_DEPTH = {"open water": 18, "advanced": 30, "deep": 40}


class BookingRefused(ValueError):
    pass


@dataclass
class Boat:
    name: str
    seats: int
    manifest: dict = field(default_factory=dict)

    def book(self, diver, certification, plan):
        if diver in self.manifest:
            raise BookingRefused(f"{diver} is already on {self.name}")
        if len(self.manifest) >= self.seats:
            raise BookingRefused(f"{self.name} is full")
        limit = MAX_DEPTH.get(certification)
        if limit is None:
            raise BookingRefused(f"{diver}: unknown certification {certification!r}")
        if plan.depth_m > limit:
            raise BookingRefused(f"{diver}: {certification} divers are limited to {limit} m")
        self.manifest[diver] = certification
        return len(self.manifest)

    def cancel(self, diver):
        if self.manifest.pop(diver, None) is None:
            raise BookingRefused(f"{diver} is not booked on {self.name}")

    def free_seats(self):
        return self.seats - len(self.manifest)
