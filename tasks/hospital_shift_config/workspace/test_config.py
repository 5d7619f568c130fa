from datetime import time, timedelta
from decimal import Decimal

import pytest

from config import describe, dump_config, parse_config
from cover import MONDAY, Team, bank_cost, week_cover
from pay import daily_pay_bill, shift_pay
from roster import nurse_hours_per_day, shifts
from schema import ConfigError

CONFIG = """
[defaults]
differential_percent = 25

[cardiology]
beds = 24
nurse_ratio_day = 4
nurse_ratio_night = 6
weekend_differential = yes

[maternity]
beds = 18
twelve_hour_shifts = false
night_differential = no
charge_nurse_required = False
skills = midwifery, neonatal

[icu]
beds = 10
nurse_ratio_day = 1
nurse_ratio_night = 1
"""


def test_defaults_and_overrides():
    wards = parse_config(CONFIG)
    assert wards["icu"]["beds"] == 10 and wards["icu"]["differential_percent"] == 25
    assert wards["maternity"]["skills"] == ["midwifery", "neonatal"]
    assert wards["cardiology"]["day_start"] == time(7, 0)


def test_boolean_settings():
    wards = parse_config(CONFIG)
    assert wards["cardiology"]["weekend_differential"] is True
    assert wards["maternity"]["twelve_hour_shifts"] is False
    assert wards["maternity"]["night_differential"] is False
    assert wards["maternity"]["charge_nurse_required"] is False


def test_eight_hour_pattern_for_maternity():
    m = parse_config(CONFIG)["maternity"]
    assert [(s.name, s.start, s.nurses) for s in shifts(m)] == [
        ("early", time(7, 0), 5), ("late", time(15, 0), 5), ("night", time(23, 0), 3)]
    assert nurse_hours_per_day(m) == 104


def test_cardiology_staffing_and_pay():
    c = parse_config(CONFIG)["cardiology"]
    day, night = shifts(c)
    assert (day.nurses, night.nurses) == (7, 5)
    assert shift_pay(c, night, 30) == Decimal("450.00")
    assert shift_pay(c, night, 30, weekend=True) == Decimal("540.00")


def test_maternity_nights_are_paid_flat():
    m = parse_config(CONFIG)["maternity"]
    assert daily_pay_bill(m, 28) == Decimal("2912.00")


def test_describe():
    wards = parse_config(CONFIG)
    assert describe("maternity", wards["maternity"]) == "maternity: 18 beds, flags none"


def test_bad_values_are_reported():
    with pytest.raises(ConfigError, match="beds"):
        parse_config("[x]\nbeds = 200\n")
    with pytest.raises(ConfigError, match="unknown"):
        parse_config("[x]\nbedz = 2\n")
    with pytest.raises(ConfigError, match="day_start"):
        parse_config("[x]\nday_start = seven\n")


def test_week_cover_for_maternity():
    m = parse_config(CONFIG)["maternity"]
    team = Team([f"n{i}" for i in range(14)])
    team.book_leave("n1", MONDAY, MONDAY + timedelta(days=1))
    team.book_leave("n2", MONDAY + timedelta(days=5), MONDAY + timedelta(days=6))
    rows = week_cover(m, team, MONDAY)
    assert rows[0] == ("Mon", 13, 13, 0)
    assert [r[3] for r in rows] == [0, 0, 0, 0, 0, 0, 0]
    team.book_leave("n3", MONDAY, MONDAY)
    team.book_leave("n4", MONDAY + timedelta(days=6), MONDAY + timedelta(days=6))
    rows = week_cover(m, team, MONDAY)
    assert [r[3] for r in rows] == [1, 0, 0, 0, 0, 0, 1]
    # one 8-hour night on Monday and one on Sunday, no differentials on this ward
    assert bank_cost(m, rows, 30) == Decimal("480.00")


def test_dump_and_reload():
    wards = parse_config(CONFIG)
    assert parse_config(dump_config(wards)) == wards
    assert "beds = 24" in dump_config(wards).splitlines()
