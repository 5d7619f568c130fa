"""A booking of one meeting room for a half-open time range [start, end)."""
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Booking:
    room: str
    title: str
    start: datetime
    end: datetime

    def __post_init__(self):
        if self.start.tzinfo is None or self.end.tzinfo is None:
            raise ValueError("booking times must be timezone-aware")
        if self.end <= self.start:
            raise ValueError(f"booking {self.title!r} ends before it starts")

    def overlaps(self, other: "Booking") -> bool:
        return self.room == other.room and self.start < other.end and other.start < self.end
