"""Timesheet entries as exported by the time-tracking app (CSV without header)."""
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Entry:
    line: int
    employee: str
    day: date
    project: str
    hours: float


def parse(text: str) -> list[Entry]:
    entries = []
    for number, raw in enumerate(text.strip().splitlines(), start=1):
        employee, day, project, hours = (f.strip() for f in raw.split(","))
        entries.append(Entry(number, employee, date.fromisoformat(day), project, float(hours)))
    return entries
