from decimal import Decimal

import pytest

from billing_run import BillingRun, revenue
from invoice import Invoice, LineItem
from pricing import Account, PriceBook

D = Decimal


def price_book():
    return PriceBook(
        plans={"starter": D("10.00"), "team": D("49.00")},
        meter_rates={"api_calls": D("0.002"), "storage_gb": D("0.25")},
        included={"starter": {"api_calls": D(1000)}, "team": {"api_calls": D(20000), "storage_gb": D(50)}},
    )


def test_overage_lines_only_for_usage_beyond_allowance():
    acct = Account("acme", "team", usage={"api_calls": D(25000), "storage_gb": D(40)})
    lines = price_book().charges_for(acct)
    assert [line.description for line in lines] == ["team plan", "api_calls overage"]
    assert lines[1].amount == D("10.00")  # 5000 calls * 0.002


def test_tax_is_rounded_on_the_subtotal():
    inv = Invoice("acme", "2024-05", lines=[LineItem("a", D(1), D("0.05")), LineItem("b", D(1), D("0.05"))], tax_rate=D("0.25"))
    # 0.10 * 0.25 = 0.025 -> 0.03 (half up)
    assert inv.tax() == D("0.03")
    assert inv.total() == D("0.13")


def test_negative_quantity_is_rejected():
    inv = Invoice("acme", "2024-05", lines=[])
    with pytest.raises(ValueError, match="negative quantity"):
        inv.add_line(LineItem("credit", D(-1), D("5.00")))


def test_duplicate_account_in_run_is_rejected():
    run = BillingRun(price_book(), "2024-05")
    with pytest.raises(ValueError, match="appears twice"):
        run.run([Account("acme", "starter"), Account("acme", "team")])


def test_each_account_is_billed_for_its_own_usage():
    run = BillingRun(price_book(), "2024-05")
    invoices = run.run(
        [
            Account("acme", "team", usage={"api_calls": D(25000)}),
            Account("globex", "starter", region="eu", usage={"api_calls": D(1500)}),
        ]
    )
    assert invoices["acme"].total() == D("59.00"), f"acme total {invoices['acme'].total()}"
    # 10.00 plan + 500 * 0.002 = 11.00, plus 20% VAT = 13.20
    assert invoices["globex"].total() == D("13.20"), f"globex total {invoices['globex'].total()}"


def test_run_revenue_is_the_sum_of_plan_fees_without_usage():
    run = BillingRun(price_book(), "2024-06")
    invoices = run.run([Account("a1", "starter"), Account("a2", "starter"), Account("a3", "team")])
    assert revenue(invoices) == D("69.00"), f"run revenue {revenue(invoices)}"
