from availability import free_slots, suggest
from busy import merge_busy
from timeslots import Slot


def cal(*texts):
    return [Slot.parse(t) for t in texts]


def test_gaps_between_two_meetings():
    calendars = {"ana": cal("10:00-11:00", "13:00-14:00")}
    assert [str(s) for s in free_slots(calendars, ["ana"])] == ["09:00-10:00", "11:00-13:00", "14:00-17:00"]


def test_touching_meetings_leave_no_gap():
    assert merge_busy(cal("10:00-11:00", "11:00-12:00")) == cal("10:00-12:00")


def test_short_meeting_inside_a_long_one_keeps_the_long_one_busy():
    calendars = {"ana": cal("09:00-12:00"), "ben": cal("10:00-10:30")}
    assert [str(s) for s in free_slots(calendars, ["ana", "ben"])] == ["12:00-17:00"]


def test_suggestion_is_free_for_everyone():
    calendars = {
        "ana": cal("09:00-09:30", "12:00-13:00"),
        "ben": cal("09:15-11:30"),
        "cy": cal("09:45-10:15", "14:00-15:00"),
    }
    suggestion = suggest(calendars, ["ana", "ben", "cy"], 45)
    assert suggestion == "13:00-13:45", f"suggested {suggestion} while ben is still in his 09:15-11:30 block"


def test_no_room_for_a_long_meeting():
    calendars = {"ana": cal("09:00-11:00", "12:00-15:00"), "ben": cal("15:30-17:00")}
    assert suggest(calendars, ["ana", "ben"], 90) is None


def test_meetings_outside_working_hours_are_ignored():
    calendars = {"ana": cal("07:00-08:00", "17:30-18:00")}
    assert [str(s) for s in free_slots(calendars, ["ana"])] == ["09:00-17:00"]
