"""Flights needing a gate, and the aircraft types the airport handles."""
from dataclasses import dataclass

# ICAO size code by aircraft type: C narrow-body, D/E wide-body, F very large.
SIZE_CODE = {"A320": "C", "B738": "C", "A321": "C", "B763": "D", "A332": "E", "B789": "E", "A388": "F"}
SIZE_ORDER = "CDEF"


@dataclass(frozen=True)
class Flight:
    number: str
    aircraft: str
    on_block: int
    off_block: int
    international: bool = False

    def __post_init__(self):
        if self.aircraft not in SIZE_CODE:
            raise ValueError(f"{self.number}: unknown aircraft type {self.aircraft}")
        if self.off_block <= self.on_block:
            raise ValueError(f"{self.number}: off-block must be after on-block")

    @property
    def size(self):
        return SIZE_CODE[self.aircraft]

    def overlaps(self, other, buffer_min=10):
        return self.on_block < other.off_block + buffer_min and other.on_block < self.off_block + buffer_min


def hhmm(text):
    h, m = text.split(":")
    return int(h) * 60 + int(m)
