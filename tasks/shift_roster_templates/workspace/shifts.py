"""Shifts: a day of the week and a time range, parsed from the strings managers type ("Tue 09:00-17:30")."""
from dataclasses import dataclass

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


class ShiftError(ValueError):
    pass


def _minutes(hhmm):
    try:
        hours, minutes = hhmm.split(":")
        value = int(hours) * 60 + int(minutes)
    except ValueError:
        raise ShiftError(f"not a time: {hhmm!r}") from None
    if not 0 <= value <= 24 * 60 or not 0 <= int(minutes) < 60:
        raise ShiftError(f"time out of range: {hhmm!r}")
    return value


@dataclass(frozen=True, order=True)
class Shift:
    day: int
    start: int
    end: int
    role: str = "floor"

    @property
    def hours(self):
        return (self.end - self.start) / 60

    def overlaps(self, other):
        return self.day == other.day and self.start < other.end and other.start < self.end

    def label(self):
        return f"{DAYS[self.day]} {self.start // 60:02d}:{self.start % 60:02d}-{self.end // 60:02d}:{self.end % 60:02d} {self.role}"


def parse_shift(text, role="floor"):
    try:
        day_name, span = text.split()
        start_text, end_text = span.split("-")
    except ValueError:
        raise ShiftError(f"expected 'Day HH:MM-HH:MM', got {text!r}") from None
    if day_name not in DAYS:
        raise ShiftError(f"unknown day {day_name!r}")
    start, end = _minutes(start_text), _minutes(end_text)
    if end <= start:
        raise ShiftError(f"{text!r} ends before it starts")
    return Shift(DAYS.index(day_name), start, end, role)
