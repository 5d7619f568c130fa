"""Collapses everyone's calendar entries into disjoint busy blocks."""

from timeslots import Slot


def merge_busy(slots):
    """Sorted, non-overlapping busy blocks covering every input slot. Touching blocks are joined."""
    merged = []
    for slot in sorted(slots):
        if merged and slot.start <= merged[-1].end:
            merged[-1] = Slot(merged[-1].start, max(merged[-1].end, slot.end))
        else:
            merged.append(slot)
    return merged


def busy_for(calendars, attendees):
    """All busy slots of the named attendees; an attendee with no calendar is free all day."""
    slots = []
    for name in attendees:
        slots.extend(calendars.get(name, ()))
    return merge_busy(slots)
