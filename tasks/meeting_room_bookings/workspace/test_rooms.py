from datetime import date, datetime, timedelta, timezone

import pytest

from offices import Directory, Office, OutsideOfficeHours, Room
from recurrence import occurrences
from rooms import RoomScheduler, RoomTaken

BERLIN = timezone(timedelta(hours=1), "CET")
NEW_YORK = timezone(timedelta(hours=-5), "EST")


def at(hour, minute=0, tz=BERLIN):
    return datetime(2024, 2, 12, hour, minute, tzinfo=tz)


def test_overlapping_booking_is_refused(tmp_path):
    rooms = RoomScheduler(tmp_path / "calendar.json")
    rooms.book("Ada", "standup", at(9), 30)
    with pytest.raises(RoomTaken):
        rooms.book("Ada", "design review", at(9, 15), 60)


def test_back_to_back_bookings_are_allowed(tmp_path):
    rooms = RoomScheduler(tmp_path / "calendar.json")
    rooms.book("Ada", "standup", at(9), 30)
    rooms.book("Ada", "design review", at(9, 30), 60)
    assert len(rooms.bookings) == 2


def test_cross_office_clash_is_detected(tmp_path):
    rooms = RoomScheduler(tmp_path / "calendar.json")
    rooms.book("Ada", "planning", at(15), 60)
    with pytest.raises(RoomTaken):
        rooms.book("Ada", "customer call", at(9, 30, NEW_YORK), 30)


def test_reload_keeps_every_booking(tmp_path):
    RoomScheduler(tmp_path / "calendar.json").book("Ada", "standup", at(9), 30)
    RoomScheduler(tmp_path / "calendar.json").book("Turing", "1:1", at(11), 30)
    titles = sorted(b.title for b in RoomScheduler(tmp_path / "calendar.json").bookings)
    assert titles == ["1:1", "standup"]


def test_reloaded_calendar_still_refuses_the_same_slot(tmp_path):
    RoomScheduler(tmp_path / "calendar.json").book("Ada", "standup", at(9), 30)
    restarted = RoomScheduler(tmp_path / "calendar.json")
    with pytest.raises(RoomTaken):
        restarted.book("Ada", "interview", at(9, 10), 30)


def test_agenda_after_reload_shows_local_times(tmp_path):
    rooms = RoomScheduler(tmp_path / "calendar.json")
    rooms.book("Ada", "standup", at(9), 30)
    rooms.book("Ada", "customer call", at(8, 0, NEW_YORK), 30)
    before = rooms.agenda("Ada", BERLIN)
    after = RoomScheduler(tmp_path / "calendar.json").agenda("Ada", BERLIN)
    assert before == ["09:00 standup", "14:00 customer call"]
    assert after == before


def make_directory():
    return Directory(
        [Office("Berlin", BERLIN), Office("New York", NEW_YORK)],
        [Room("Ada", "Berlin", 6, frozenset({"screen"})), Room("Turing", "Berlin", 2), Room("Hopper", "New York", 12, frozenset({"screen", "vc"}))],
    )


def test_directory_checks_capacity_equipment_and_hours(tmp_path):
    rooms = RoomScheduler(tmp_path / "calendar.json", make_directory())
    rooms.book("Hopper", "all hands", at(9, 0, NEW_YORK), 60, attendees=12, needs={"vc"})
    with pytest.raises(ValueError, match="seats 2"):
        rooms.book("Turing", "retro", at(10), 60, attendees=5)
    with pytest.raises(ValueError, match="no vc"):
        rooms.book("Ada", "sync", at(10), 30, needs={"vc"})
    with pytest.raises(OutsideOfficeHours, match="07:00-20:00 Berlin"):
        rooms.book("Ada", "late call", at(13, 30, NEW_YORK), 60)
    assert make_directory().rooms_for(4, {"screen"}) == ["Ada", "Hopper"]


def test_weekly_series_is_booked_whole_or_not_at_all(tmp_path):
    rooms = RoomScheduler(tmp_path / "calendar.json")
    starts = occurrences(at(10), "weekly", 4, skip={date(2024, 2, 26)})
    assert [s.day for s in starts] == [12, 19, 4]
    rooms.book("Ada", "offsite prep", at(10, 15) + timedelta(weeks=3), 30)
    with pytest.raises(RoomTaken):
        rooms.book_series("Ada", "weekly review", at(10), 60, "weekly", 4)
    assert [b.title for b in rooms.bookings] == ["offsite prep"]
    assert len(rooms.book_series("Ada", "weekly review", at(10), 60, "weekly", 4, skip={date(2024, 3, 4)})) == 3
