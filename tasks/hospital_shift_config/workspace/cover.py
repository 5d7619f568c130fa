"""Cover for a week: who is on leave, how many bank nurses each shift needs, and what that costs."""
from dataclasses import dataclass, field
from datetime import date, timedelta

from pay import shift_pay
from roster import shifts

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@dataclass
class Team:
    nurses: list
    leave: dict = field(default_factory=dict)

    def book_leave(self, nurse, first, last):
        if nurse not in self.nurses:
            raise KeyError(f"{nurse} is not on this ward")
        if last < first:
            raise ValueError("leave ends before it starts")
        day = first
        while day <= last:
            self.leave.setdefault(day, set()).add(nurse)
            day += timedelta(days=1)

    def available(self, day):
        return [n for n in self.nurses if n not in self.leave.get(day, set())]


def week_cover(values, team, monday):
    """Per day: (weekday, nurses needed across shifts, available, bank nurses to book)."""
    if monday.weekday() != 0:
        raise ValueError(f"{monday} is not a Monday")
    needed = sum(s.nurses for s in shifts(values))
    rows = []
    for i in range(7):
        day = monday + timedelta(days=i)
        available = len(team.available(day))
        rows.append((WEEKDAYS[i], needed, available, max(0, needed - available)))
    return rows


def bank_cost(values, rows, hourly):
    """Bank nurses are booked on the night shift first, then days; weekends attract the differential."""
    night = next(s for s in shifts(values) if s.night)
    day_shift = next(s for s in shifts(values) if not s.night)
    total = 0
    for weekday, _, _, bank in rows:
        weekend = weekday in ("Sat", "Sun")
        on_nights = min(bank, night.nurses)
        total += on_nights * shift_pay(values, night, hourly, weekend)
        total += (bank - on_nights) * shift_pay(values, day_shift, hourly, weekend)
    return total


MONDAY = date(2026, 11, 30)
