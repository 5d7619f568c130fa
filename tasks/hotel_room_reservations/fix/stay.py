"""Stays are half-open date ranges: a guest arrives on check_in and leaves on the morning of check_out."""

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Stay:
    check_in: date
    check_out: date

    def __post_init__(self):
        if self.check_out <= self.check_in:
            raise ValueError(f"check_out {self.check_out} must be after check_in {self.check_in}")

    @property
    def nights(self):
        return (self.check_out - self.check_in).days

    def overlaps(self, other):
        """True when the two stays need the room on at least one common night."""
        return self.check_in < other.check_out and other.check_in < self.check_out

    def contains(self, day):
        return self.check_in <= day < self.check_out
