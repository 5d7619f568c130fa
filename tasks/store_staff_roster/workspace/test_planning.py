import pytest

from planning import over_limit, uncovered_days, weekly_hours
from roster import WeekRoster
from shifts import Shift


def test_shift_must_fit_in_one_day():
    with pytest.raises(ValueError, match="not within one day"):
        Shift("alice", "cashier", 20, 26)


def test_unknown_day_is_rejected():
    with pytest.raises(ValueError, match="unknown day"):
        WeekRoster("store-12", "2024-W19").assign("funday", Shift("alice", "cashier", 9, 17))


def test_overlapping_shifts_for_one_person_are_rejected():
    roster = WeekRoster("store-12", "2024-W19")
    roster.assign("mon", Shift("alice", "cashier", 9, 17))
    with pytest.raises(ValueError, match="already works"):
        roster.assign("mon", Shift("alice", "stock", 16, 20))


def test_weekly_hours_per_employee():
    roster = WeekRoster("store-12", "2024-W20")
    roster.assign("mon", Shift("alice", "cashier", 9, 17))
    roster.assign("tue", Shift("bob", "stock", 6, 10))
    roster.assign("wed", Shift("alice", "supervisor", 12, 16))
    hours = weekly_hours(roster)
    assert hours == {"alice": 12, "bob": 4}, f"weekly hours: {hours}"
    assert over_limit(roster) == []


def test_same_hours_on_different_days_are_allowed():
    roster = WeekRoster("store-7", "2024-W20")
    for day in ("mon", "tue", "wed"):
        roster.assign(day, Shift("carol", "cashier", 8, 16))
    assert [len(roster.on(d)) for d in ("mon", "tue", "wed", "thu")] == [1, 1, 1, 0]


def test_days_without_a_supervisor_are_reported():
    roster = WeekRoster("store-7", "2024-W21")
    roster.assign("sat", Shift("dave", "supervisor", 9, 18))
    roster.assign("sun", Shift("erin", "cashier", 10, 16))
    gaps = uncovered_days(roster, "supervisor", open_days=("fri", "sat", "sun"))
    assert gaps == ["fri", "sun"], f"days without a supervisor: {gaps}"
