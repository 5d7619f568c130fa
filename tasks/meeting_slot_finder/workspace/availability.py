"""Finds times when every attendee is free, for the 'suggest a meeting time' button."""

from busy import busy_for
from timeslots import Slot

WORKDAY = Slot.parse("09:00-17:00")


def free_slots(calendars, attendees, day=WORKDAY):
    """Gaps between busy blocks, clipped to the working day."""
    gaps, cursor = [], day.start
    for block in busy_for(calendars, attendees):
        if block.end <= day.start or block.start >= day.end:
            continue
        if block.start > cursor:
            gaps.append(Slot(cursor, block.start))
        cursor = max(cursor, block.end)
    if cursor < day.end:
        gaps.append(Slot(cursor, day.end))
    return gaps


def suggest(calendars, attendees, duration_minutes, day=WORKDAY):
    """Start of the earliest gap long enough for the meeting, as (start, end) text, or None."""
    for gap in free_slots(calendars, attendees, day):
        if gap.minutes >= duration_minutes:
            return str(Slot(gap.start, gap.start + duration_minutes))
    return None
