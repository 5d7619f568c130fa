"""Lifts and their opening hours."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Lift:
    code: str
    name: str
    opens: int
    closes: int
    seats_per_minute: int

    def __post_init__(self):
        if not 0 <= self.opens < self.closes <= 24 * 60:
            raise ValueError(f"lift {self.code}: bad opening hours")

    def is_open(self, minute_of_day):
        return self.opens <= minute_of_day < self.closes


def hhmm(text):
    h, m = text.split(":")
    return int(h) * 60 + int(m)


LIFTS = {
    lift.code: lift
    for lift in (
        Lift("GONDOLA", "Valley gondola", hhmm("08:30"), hhmm("16:30"), 40),
        Lift("CHAIR6", "Glacier six-seater", hhmm("09:00"), hhmm("16:00"), 48),
        Lift("TBAR", "Nursery T-bar", hhmm("09:00"), hhmm("15:30"), 12),
    )
}


def open_lifts(minute_of_day):
    """Codes of the lifts running at this minute, for the lift-status board."""
    return sorted(code for code, lift in LIFTS.items() if lift.is_open(minute_of_day))
