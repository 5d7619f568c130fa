import pytest

from layout import OrderLine, zone_of
from report import cover_sheet, units_per_zone
from staffing import assign
from waves import PickWave, build_wave

LINES = [
    OrderLine("o1", "tea", "A-03-02", 2),
    OrderLine("o1", "peas", "F-01-01", 1),
    OrderLine("o2", "rice", "A-01-04", 5),
    OrderLine("o2", "soap", "C-07-01", 3),
]


def test_zone_of_location():
    assert zone_of("b-12-03") == "B"
    with pytest.raises(ValueError):
        zone_of("Q-01-01")


def test_empty_wave():
    assert PickWave("w0").busy_zones() == []


def test_pick_list_is_per_zone_in_walking_order():
    wave = build_wave("w1", LINES)
    assert [l.sku for l in wave.pick_list("A")] == ["rice", "tea"]
    assert [l.sku for l in wave.pick_list("F")] == ["peas"]


def test_units_per_zone():
    wave = build_wave("w1", LINES)
    assert units_per_zone(wave) == {"A": 7, "B": 0, "C": 3, "F": 1}


def test_cover_sheet():
    sheet = cover_sheet(build_wave("w2", LINES[:2]))
    assert sheet.splitlines() == ["Wave w2: 1 orders, 3 units", "  zone A: 2 units", "  zone F: 1 units"], sheet


def test_zero_quantity_line_refused():
    with pytest.raises(ValueError):
        build_wave("w3", [OrderLine("o9", "tea", "A-01-01", 0)])


def test_pickers_follow_the_work_and_the_freezer_is_capped():
    plan = assign({"A": 90, "B": 0, "C": 30, "F": 200}, ["ann", "bea", "cai", "dov", "eli", "fay"])
    # one each for A, C, F; F is capped at two, so the rest go to A (90/2 = 45 > 30)
    assert plan == {"A": ["ann", "bea", "cai"], "C": ["dov"], "F": ["eli", "fay"]}
    with pytest.raises(ValueError):
        assign({"A": 1, "C": 1}, ["ann"])
