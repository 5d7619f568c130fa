"""Time slots within one working day, stored as minutes since midnight."""

from dataclasses import dataclass


def parse_hhmm(text):
    hours, minutes = text.split(":")
    value = int(hours) * 60 + int(minutes)
    if not 0 <= value <= 24 * 60:
        raise ValueError(f"{text!r} is not a time of day")
    return value


def format_hhmm(minutes):
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@dataclass(frozen=True, order=True)
class Slot:
    start: int
    end: int

    def __post_init__(self):
        if self.end <= self.start:
            raise ValueError(f"slot ends ({self.end}) before it starts ({self.start})")

    @classmethod
    def parse(cls, text):
        """'09:30-10:15' -> Slot(570, 615)."""
        start, end = text.split("-")
        return cls(parse_hhmm(start.strip()), parse_hhmm(end.strip()))

    @property
    def minutes(self):
        return self.end - self.start

    def __str__(self):
        return f"{format_hhmm(self.start)}-{format_hhmm(self.end)}"
