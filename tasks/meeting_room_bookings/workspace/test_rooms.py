from datetime import datetime, timedelta, timezone

import pytest

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
