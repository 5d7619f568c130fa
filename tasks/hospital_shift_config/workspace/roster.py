"""Shift patterns and staffing numbers from a ward's configuration."""
import math
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Shift:
    name: str
    start: object
    hours: int
    nurses: int
    night: bool


def _at(t, hours):
    return (datetime.combine(datetime(2000, 1, 1), t) + timedelta(hours=hours)).time()


def shifts(values):
    """The day's shifts: two of 12 hours, or three of 8 from day_start."""
    beds = values["beds"]
    day_nurses = math.ceil(beds / values["nurse_ratio_day"])
    night_nurses = math.ceil(beds / values["nurse_ratio_night"])
    if values["charge_nurse_required"]:
        day_nurses += 1
        night_nurses += 1
    if values["twelve_hour_shifts"]:
        return [
            Shift("day", values["day_start"], 12, day_nurses, False),
            Shift("night", values["night_start"], 12, night_nurses, True),
        ]
    start = values["day_start"]
    return [
        Shift("early", start, 8, day_nurses, False),
        Shift("late", _at(start, 8), 8, day_nurses, False),
        Shift("night", _at(start, 16), 8, night_nurses, True),
    ]


def nurse_hours_per_day(values):
    return sum(s.hours * s.nurses for s in shifts(values))
