"""Rendering the coming weeks of a rotation for the team calendar."""
from datetime import date, timedelta

from overrides import Overrides
from rotation import Rotation


def upcoming(rotation: Rotation, weeks: int) -> list[str]:
    """Who is on call for each of the next `weeks` weeks, this week first."""
    order = rotation.members()
    plan = []
    for _ in range(weeks):
        plan.append(order[0])
        order.append(order.pop(0))
    return plan


def calendar(rotation: Rotation, start: date, weeks: int, overrides: Overrides | None = None) -> list[str]:
    """Calendar lines for the team wiki; `start` is the Monday of the current week."""
    lines = []
    for i, who in enumerate(upcoming(rotation, weeks)):
        week = start + timedelta(weeks=i)
        actual = overrides.apply(week, who) if overrides else who
        note = f" (covering for {who})" if actual != who else ""
        lines.append(f"{week:%Y-%m-%d} {actual}{note}")
    return lines
