"""A store's weekly roster: the shifts planned for each day."""
from shifts import Shift

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class WeekRoster:
    def __init__(self, store: str, week: str):
        self.store = store
        self.week = week
        self.shifts: dict[str, list[Shift]] = {day: [] for day in DAYS}

    def assign(self, day: str, shift: Shift) -> None:
        if day not in self.shifts:
            raise ValueError(f"unknown day {day!r}; expected one of {', '.join(DAYS)}")
        for planned in self.shifts[day]:
            if planned.employee == shift.employee and planned.overlaps(shift):
                raise ValueError(f"{shift.employee} already works {planned.start}-{planned.end} on {day}")
        self.shifts[day].append(shift)

    def on(self, day: str) -> list[Shift]:
        return list(self.shifts[day])
