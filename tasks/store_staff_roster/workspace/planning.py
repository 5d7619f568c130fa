"""Planning checks run before a roster is published: hours per person and role coverage."""
from collections import Counter

from roster import DAYS, WeekRoster

MAX_WEEKLY_HOURS = 40


def weekly_hours(roster: WeekRoster) -> dict[str, int]:
    hours: Counter[str] = Counter()
    for day in DAYS:
        for shift in roster.on(day):
            hours[shift.employee] += shift.hours
    return dict(hours)


def over_limit(roster: WeekRoster) -> list[str]:
    return sorted(e for e, h in weekly_hours(roster).items() if h > MAX_WEEKLY_HOURS)


def uncovered_days(roster: WeekRoster, role: str, open_days: tuple[str, ...] = DAYS) -> list[str]:
    """Open days with nobody rostered in `role`."""
    return [day for day in open_days if not any(s.role == role for s in roster.on(day))]
