import copy

import pytest

import settings
from timetable import TimetableError, day_slots, end_of_day, room_for
from vendor.layerconf import get_path, merge, set_path

ROOMS = {"R1": "classroom", "R2": "classroom", "L1": "lab"}


@pytest.fixture(autouse=True)
def fresh():
    saved = copy.deepcopy(settings.DEFAULTS)
    settings.reset()
    yield
    settings.reset()
    settings.DEFAULTS.clear()
    settings.DEFAULTS.update(saved)


def test_layerconf_helpers():
    cfg = set_path({}, "a.b", 1)
    assert get_path(cfg, "a.b") == 1
    assert get_path(cfg, "a.c", None) is None
    assert merge({"x": {"y": 1}}, {"x": {"z": 2}}) == {"x": {"y": 1, "z": 2}}


def test_default_day():
    slots = day_slots("oak")
    assert [s.start for s in slots] == ["08:45", "09:35", "10:40", "11:30", "13:00", "13:50"]
    assert end_of_day("oak") == "14:40"


def test_school_with_longer_periods():
    settings.configure("elm", {"day": {"period_minutes": 60}})
    assert end_of_day("elm") == "15:40"


def test_one_school_does_not_change_another():
    settings.configure("elm", {"day": {"period_minutes": 60}})
    day_slots("elm")
    assert end_of_day("oak") == "14:40"


def test_lab_subjects_per_school():
    settings.configure("pine", {"rooms": {"lab_subjects": ["chemistry", "physics", "biology"], "max_class": 24}})
    assert room_for("pine", "biology", 20, ROOMS) == "L1"
    assert room_for("oak", "biology", 28, ROOMS) == "R1"


def test_class_size_limit():
    settings.configure("pine", {"rooms": {"max_class": 24}})
    with pytest.raises(TimetableError):
        room_for("pine", "history", 26, ROOMS)
    assert room_for("oak", "history", 26, ROOMS) == "R1"


def test_break_change_stays_local():
    assert settings.with_change("ash", "breaks.minutes.4", 30) == 30
    assert settings.setting("oak", "breaks.minutes.4") == 40
    assert settings.DEFAULTS["breaks"]["minutes"]["4"] == 40


def test_weekly_grid_respects_each_schools_report_settings():
    from reports import teacher_load, weekly_grid

    lessons = {(0, 1): ("Maths", "Ng"), (1, 1): ("Physics", "Oduya")}
    settings.configure("fir", {"reports": {"locale": "fr-FR", "show_teacher": False}})
    assert weekly_grid("fir", lessons)[0] == "Emploi du temps - fir"
    assert weekly_grid("oak", lessons)[0] == "Timetable - oak"
    assert "Maths (Ng)" in weekly_grid("oak", lessons)[1]
    assert teacher_load(lessons) == {"Ng": 1, "Oduya": 1}


def test_exam_day_with_long_periods_elsewhere():
    from exams import ExamSitting, place_exams

    settings.configure("elm", {"day": {"period_minutes": 60}})
    assert place_exams("elm", [ExamSitting("History", 120, 90)], 120) == [("History", "08:45", 2)]
    plan = place_exams("oak", [ExamSitting("Maths", 90, 100), ExamSitting("Art", 45, 20)], 120)
    assert plan == [("Maths", "08:45", 2), ("Art", "10:40", 1)]


def test_clash_detection():
    from reports import clashes

    found = clashes({"7A": {(0, 1): ("Maths", "Ng")}, "7B": {(0, 1): ("Maths", "Ng"), (0, 2): ("Art", "Li")}})
    assert found == [("Ng", (0, 1), "7A", "7B")]


def test_free_periods_and_minutes():
    from timetable import free_periods, minutes_taught

    lessons = {(0, 1): ("Maths", "Ng"), (0, 3): ("Art", "Li"), (1, 2): ("PE", "Bo")}
    assert free_periods("oak", lessons, 0) == [2, 4, 5, 6]
    assert minutes_taught("oak", lessons) == 150


def test_differences_from_defaults():
    settings.configure("yew", {"day": {"start": "09:00"}, "rooms": {"max_class": 28}})
    assert settings.differences("yew") == ["day.start", "rooms.max_class"]
    assert settings.differences("oak") == []
