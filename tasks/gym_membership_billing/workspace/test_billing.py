from datetime import date
from decimal import Decimal

import pytest

from billing import invoice, statement, total
from members import Member
from plans import PlanError
from proration import days_used, next_month_start, prorate


def test_days_used_includes_both_ends():
    assert days_used(date(2026, 3, 1), date(2026, 3, 1)) == 1
    assert days_used(date(2026, 3, 10), date(2026, 3, 31)) == 22


def test_prorate():
    assert prorate(Decimal("31.00"), date(2026, 3, 10), date(2026, 3, 31)) == Decimal("22.00")
    assert next_month_start(date(2026, 12, 5)) == date(2027, 1, 1)


def test_full_month():
    m = Member("m1", "Ana", "STD", date(2026, 1, 5))
    assert invoice(m, 2026, 2) == [("Standard", Decimal("39.00"))]


def test_joining_month_is_prorated():
    m = Member("m2", "Ben", "PLUS", date(2026, 4, 16))
    assert invoice(m, 2026, 4) == [("joining fee", Decimal("15.00")), ("Plus 16-30/30", Decimal("29.50"))]


def test_cancelled_mid_month():
    m = Member("m3", "Cai", "OFF", date(2025, 1, 1), cancelled=date(2026, 2, 14))
    assert invoice(m, 2026, 2) == [("Off-peak 1-14/28", Decimal("12.00"))]
    assert invoice(m, 2026, 3) == []


def test_upgrade_splits_the_month():
    m = Member("m4", "Dee", "STD", date(2025, 6, 1))
    m.change_plan(date(2026, 6, 11), "PLUS")
    lines = invoice(m, 2026, 6)
    assert lines == [("Standard 1-10/30", Decimal("13.00")), ("Plus 11-30/30", Decimal("39.33"))]
    assert total(lines) == Decimal("52.33")


def test_extra_classes_and_statement():
    m = Member("m5", "Eve", "STD", date(2025, 6, 1))
    for d in range(1, 7):
        m.book_class(date(2026, 7, d))
    assert statement(m, 2026, 7)[-2:] == ["  2 extra classes                17.00", "  total                          56.00"]


def test_unknown_plan():
    with pytest.raises(PlanError):
        Member("m6", "Fay", "STD", date(2026, 1, 1)).change_plan(date(2026, 2, 1), "GOLD")


def test_failed_payments_freeze_the_membership():
    from dunning import Dunning

    m = Member("m7", "Gus", "STD", date(2026, 5, 20))
    d = Dunning()
    due = d.bill(m, 2026, 5)
    assert due == Decimal("30.10")
    assert d.payment_failed(m, date(2026, 6, 1)) == "retry 2026-06-04"
    assert d.payment_failed(m, date(2026, 6, 4)) == "retry 2026-06-11"
    assert d.payment_failed(m, date(2026, 6, 11)) == "frozen"
    assert d.owed(m) == Decimal("30.10")
    d.paid(m, Decimal("30.10"))
    assert d.status(m) == "active" and d.owed(m) == Decimal("0.00")


def test_revenue_report_for_a_month():
    from dunning import revenue_report

    members = [
        Member("a", "A", "STD", date(2026, 1, 1)),
        Member("b", "B", "OFF", date(2026, 8, 21)),
        Member("c", "C", "PLUS", date(2026, 1, 1), cancelled=date(2026, 8, 10)),
    ]
    assert revenue_report(members, 2026, 8) == {"members": 3, "joining": "15.00", "membership": "66.55", "classes": "0.00"}


def test_roster_and_peak_access():
    from members import peak_allowed, roster
    from plans import price_list

    members = [Member("a", "A", "STD", date(2026, 1, 1)), Member("b", "B", "OFF", date(2026, 1, 1))]
    assert roster(members, date(2026, 3, 2)) == {"active": 2, "by_plan": {"OFF": 1, "STD": 1}}
    assert peak_allowed(members[1], date(2026, 3, 2), 18) is False
    assert peak_allowed(members[1], date(2026, 3, 2), 11) is True
    assert price_list()[0] == ("OFF", "Off-peak", "24.00", 0)


def test_annual_summary_of_a_late_joiner():
    from billing import annual_summary
    from proration import months_between

    m = Member("m8", "Hal", "OFF", date(2026, 11, 11))
    summary = annual_summary(m, 2026)
    assert summary["billed_months"] == 2
    assert summary["months"]["2026-12"] == "24.00"
    assert summary["total"] == "55.00"
    assert months_between(date(2026, 11, 11), date(2027, 2, 1)) == 4
