from dataclasses import dataclass

from settings import settings_for
from timetable import TimetableError, day_slots, to_minutes


@dataclass(frozen=True)
class ExamSitting:
    subject: str
    minutes: int
    candidates: int


def periods_needed(school, sitting):
    length = settings_for(school)["day"]["period_minutes"]
    return -(-sitting.minutes // length)


def place_exams(school, sittings, hall_seats):
    slots = day_slots(school)
    plan = []
    period = 1
    for sitting in sorted(sittings, key=lambda s: (-s.minutes, s.subject)):
        if sitting.candidates > hall_seats:
            raise TimetableError(f"{sitting.subject}: {sitting.candidates} candidates, {hall_seats} seats")
        need = periods_needed(school, sitting)
        if period + need - 1 > len(slots):
            raise TimetableError(f"no room left in the day for {sitting.subject}")
        start = slots[period - 1].start
        plan.append((sitting.subject, start, need))
        period += need
    return plan


def finishes_before(school, plan, hhmm):
    limit = to_minutes(hhmm)
    length = settings_for(school)["day"]["period_minutes"]
    return all(to_minutes(start) + need * length <= limit for _, start, need in plan)
