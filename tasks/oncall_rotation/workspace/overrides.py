"""One-off cover: someone takes another member's on-call week (holiday, illness).

Overrides are keyed by the Monday of the week they cover, so they survive
changes to the rotation order.
"""
from datetime import date, timedelta


def week_of(day: date) -> date:
    """The Monday starting the on-call week that contains `day`."""
    return day - timedelta(days=day.weekday())


class Overrides:
    def __init__(self):
        self._cover: dict[date, tuple[str, str]] = {}  # week -> (absent member, covering member)

    def add(self, week: date, absent: str, cover: str) -> None:
        if week.weekday() != 0:
            raise ValueError(f"{week} is not a Monday; overrides cover whole weeks")
        if absent == cover:
            raise ValueError("a member cannot cover their own week")
        self._cover[week] = (absent, cover)

    def apply(self, week: date, scheduled: str) -> str:
        """Who is actually on call in `week` if `scheduled` was planned."""
        absent, cover = self._cover.get(week, (None, None))
        return cover if absent == scheduled else scheduled

    def remove(self, week: date) -> None:
        self._cover.pop(week, None)
