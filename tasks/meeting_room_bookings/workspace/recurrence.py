"""Repeating meetings: the start of every occurrence of a daily or weekly series."""
from datetime import timedelta

STEPS = {"daily": timedelta(days=1), "weekly": timedelta(weeks=1)}


def occurrences(first, every, count, skip=(), weekdays_only=False):
    """`count` starts from `first`, stepping by `every`; dates in `skip` are left out without replacement."""
    if every not in STEPS:
        raise ValueError(f"every must be one of {sorted(STEPS)}, got {every!r}")
    if count < 1:
        raise ValueError("a series needs at least one occurrence")
    skip = set(skip)
    out, moment = [], first
    for _ in range(count):
        if moment.date() not in skip and not (weekdays_only and moment.weekday() >= 5):
            out.append(moment)
        moment = moment + STEPS[every]
    return out
