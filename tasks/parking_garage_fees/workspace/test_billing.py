from datetime import datetime

import pytest

from datetime import date

from billing import charge, charge_log, receipt
from permits import PermitBook
from reports import daily_report, format_report
from sessions import Session, parse_log_line
from tariffs import Tariff


def stay(entered, left, name="standard"):
    return Session("AB12CDE", datetime.fromisoformat(entered), datetime.fromisoformat(left), name)


def test_within_grace_is_free():
    assert charge(stay("2026-05-04T10:00", "2026-05-04T10:14")).cents == 0


def test_exact_hours():
    assert charge(stay("2026-05-04T10:00", "2026-05-04T12:00")).cents == 500


def test_part_hour_is_charged_as_a_full_hour():
    # 2 h 20 min at 2.50 an hour: three started hours
    assert charge(stay("2026-05-04T09:00", "2026-05-04T11:20")).cents == 750


def test_just_past_grace_pays_one_hour():
    assert charge(stay("2026-05-04T09:00", "2026-05-04T09:16")).cents == 250


def test_daily_cap_applies_per_calendar_day():
    # 14:00 -> 23:59 is capped at 18.00; 00:00 -> 09:00 next day is 9 hours = 22.50, capped at 18.00
    assert charge(stay("2026-05-04T08:00", "2026-05-05T09:00")).cents == 3600


def test_night_flat_rate():
    c = charge(stay("2026-05-04T21:30", "2026-05-05T06:45"))
    assert (c.cents, c.night) == (600, True)


def test_short_stay_tariff():
    assert charge(stay("2026-05-04T10:00", "2026-05-04T10:45", "short-stay")).cents == 400


def test_log_totals_and_receipt():
    charges, total = charge_log([
        "AA11AAA 2026-05-04T08:00 2026-05-04T08:05",
        "BB22BBB 2026-05-04T08:00 2026-05-04T09:30 staff",
        "",
        "CC33CCC 2026-05-04T12:10 2026-05-04T12:50 short-stay",
    ])
    assert [c.cents for c in charges] == [0, 200, 400]
    assert total == 600
    assert receipt(charges[1]) == "BB22BBB: 2.00 (90 min)"


def test_bad_inputs():
    with pytest.raises(ValueError):
        parse_log_line("AA11AAA 2026-05-04T08:00")
    with pytest.raises(ValueError):
        stay("2026-05-04T10:00", "2026-05-04T09:00")
    with pytest.raises(ValueError):
        Tariff("cheap", hourly=100, daily_cap=50)


def test_permits_and_validated_tickets():
    book = PermitBook()
    book.issue("ab12 cde", date(2026, 5, 1), date(2026, 5, 31), discount_percent=50)
    book.validate_ticket("DD44DDD", 60)
    charges, total = charge_log([
        "AB12CDE 2026-05-04T09:00 2026-05-04T13:00",
        "AB12CDE 2026-06-04T09:00 2026-06-04T10:00",
        "DD44DDD 2026-05-04T09:00 2026-05-04T09:50",
        "DD44DDD 2026-05-04T11:00 2026-05-04T13:30",
    ], book)
    # 4 h half price; June is outside the permit; 50 min all validated; 2.5 h less a free hour
    assert [c.cents for c in charges] == [500, 250, 0, 500]
    assert total == 1250


def test_daily_report():
    report = daily_report([
        "AA11AAA 2026-05-04T08:00 2026-05-04T08:40",
        "BB22BBB 2026-05-04T08:30 2026-05-04T10:00 staff",
        "CC33CCC 2026-05-04T12:10 2026-05-04T12:20 short-stay",
    ])
    assert report["busiest_hour"] == 8
    assert report["average_minutes"] == 47
    assert format_report(report) == "\n".join([
        "busiest entry hour: 8",
        "average stay: 47 min",
        "short-stay: 1 stays, 0.00",
        "staff: 1 stays, 2.00",
        "standard: 1 stays, 2.50",
    ])
