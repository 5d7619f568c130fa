from decimal import Decimal

import pytest

from billing_run import invoice_for, run
from invoice import Invoice
from money import CurrencyMismatch, Money


def test_line_amounts_and_rounding():
    assert str(Money(Decimal("7.50"), "USD").times(3)) == "22.50 USD"
    assert str(Money(Decimal("0.125"), "USD")) == "0.13 USD"


def test_one_invoice_total_with_vat():
    inv = invoice_for({"customer": "zurich-labs", "country": "CH", "currency": "CHF", "plan": "business"})
    # 129.00 + 8.1 % VAT = 139.449 -> 139.45
    assert str(inv.total()) == "139.45 CHF"


def test_currency_mismatch_is_refused():
    inv = Invoice("x", "DE", "SEK")
    inv.add("plan", Money(Decimal("10"), "NOK"))
    with pytest.raises(CurrencyMismatch):
        inv.subtotal()


def test_monthly_run_bills_each_customer_for_their_own_plan():
    summary = run([
        {"customer": "acme", "country": "DE", "currency": "EUR", "plan": "team", "extra_seats": 2},
        {"customer": "bistro", "country": "FR", "currency": "EUR", "plan": "starter"},
        {"customer": "corvid", "country": "DE", "currency": "EUR", "plan": "starter"},
    ])
    # acme: (49 + 2 * 7.50) * 1.19 = 76.16; bistro: 19 * 1.20 = 22.80; corvid: 19 * 1.19 = 22.61
    assert summary == {"acme": "76.16 EUR", "bistro": "22.80 EUR", "corvid": "22.61 EUR"}


def test_reprinting_an_invoice_shows_the_same_total():
    inv = invoice_for({"customer": "delta", "country": "FR", "currency": "GBP", "plan": "team"})
    first = str(inv.total())
    assert first == "58.80 GBP"
    assert str(inv.total()) == first
