from decimal import Decimal

import pytest

from brackets import TaxError, marginal_rate, tax_on
from export import dumps, loads, to_dict
from returns import TaxReturn
from summary import household_report, summary_lines


def alex():
    return TaxReturn("Alex", 2025, "single", Decimal("72000"), Decimal("350.25"),
                     withheld=Decimal("9000"))


def sam_and_kim():
    return TaxReturn("Sam & Kim", 2025, "joint", Decimal("150000"),
                     itemized={"mortgage": Decimal("21000"), "charity": Decimal("9500")},
                     children=2, withheld=Decimal("14000"))


def test_progressive_tax():
    assert tax_on(Decimal("11000"), "single") == Decimal("1100.00")
    assert tax_on(Decimal("50000"), "single") == Decimal("6307.50")
    with pytest.raises(TaxError):
        tax_on(1, "widowed")


def test_marginal_rate():
    assert marginal_rate(Decimal("95375"), "single") == Decimal("0.22")
    assert marginal_rate(Decimal("95376"), "single") == Decimal("0.24")


def test_single_return():
    r = alex()
    assert r.taxable_income == Decimal("58500.25")
    assert r.tax_due() == Decimal("8177.56")
    assert r.balance() == Decimal("-822.44")


def test_joint_return_with_credits():
    r = sam_and_kim()
    assert r.deduction == Decimal("30500")
    assert r.tax_due() == Decimal("12905.00")


def test_export_shape():
    assert to_dict(alex())["status"] == "single"


def test_round_trip():
    r = sam_and_kim()
    assert loads(dumps(r)) == r


def test_summary_after_reload():
    lines = summary_lines(loads(dumps(alex())))
    assert lines[0] == "Alex 2025 (single)"
    assert lines[-1] == "refund 822.44"


def test_household_report():
    report = household_report([dumps(alex()), dumps(sam_and_kim())])
    assert report == {"returns": 2, "total_tax": "21082.56", "refunds": ["Alex", "Sam & Kim"]}


def test_estimates_from_last_years_return():
    from datetime import date

    from estimates import plan_from_last_year

    plan = plan_from_last_year(dumps(alex()), 2026)
    assert plan.installment() == Decimal("2044.39")
    for q in (1, 2, 3):
        plan.pay(q, plan.due_date(q), Decimal("2044.39"))
    plan.pay(4, date(2027, 1, 25), Decimal("2044.39"))
    assert plan.penalty() == Decimal("4.09")


def test_bracket_breakdown_of_a_reloaded_return():
    from brackets import breakdown

    r = loads(dumps(alex()))
    assert breakdown(r.taxable_income, r.filing_status) == [
        ("10%", Decimal("1100.00")), ("12%", Decimal("4047.00")), ("22%", Decimal("3030.56")),
    ]
