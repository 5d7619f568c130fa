from decimal import Decimal

import pytest

from fxfeed import FeedError, StaticFeed, parse_feed
from ledger import Ledger
from treasury import Treasury
from vendor.moneylib import Money, RateTable

DAY1 = "# close 2026-11-27\nEUR/USD,1.0800\nEUR/GBP,0.8600\nEUR/JPY,160.00\n"
DAY2 = "# close 2026-11-30\nEUR/USD,1.0500\nEUR/GBP,0.8600\nEUR/JPY,158.00\n"


def test_feed_parsing():
    rates = parse_feed(DAY1)
    assert rates[("EUR", "USD")] == Decimal("1.0800") and len(rates) == 3
    with pytest.raises(FeedError):
        parse_feed("EUR/USD;1.08")
    with pytest.raises(FeedError):
        parse_feed("# nothing today\n")


def test_customer_conversion_includes_the_margin():
    treasury = Treasury(StaticFeed(DAY1))
    # 1000 EUR at 1.08 less 1.5 %: 1063.80 USD
    assert treasury.customer_conversion("1000", "EUR", "USD") == Money("1063.80", "USD")
    # JPY has no minor units: 160 * 0.985 * 25 = 3940
    assert treasury.customer_conversion("25", "EUR", "JPY") == Money("3940", "JPY")


def test_mid_quote_is_the_published_rate():
    treasury = Treasury(StaticFeed(DAY1))
    assert treasury.mid_quote("EUR", "USD") == Decimal("1.0800"), f"mid EUR/USD {treasury.mid_quote('EUR', 'USD')}"
    assert treasury.mid_quote("USD", "EUR") == 1 / Decimal("1.0800")


def test_month_end_revaluation_at_mid():
    feed = StaticFeed(DAY1)
    treasury = Treasury(feed)
    ledger = Ledger("EUR")
    booking = Treasury(StaticFeed(DAY1)).mid
    ledger.post("ops-usd", Money("10800", "USD"), booking)
    feed.text = DAY2
    treasury.refresh()
    (reval,) = ledger.month_end(treasury.mid)
    # 10800 USD was booked at 1.08 (10000 EUR) and is worth 10800 / 1.05 = 10285.71 EUR at month end
    assert reval.reported == Money("10285.71", "EUR"), f"revalued at {reval.reported}"
    assert reval.gain == Money("285.71", "EUR")


def test_refresh_keeps_customer_margin():
    feed = StaticFeed(DAY1)
    treasury = Treasury(feed)
    feed.text = DAY2
    treasury.refresh()
    assert treasury.customer_conversion("1000", "EUR", "USD") == Money("1034.25", "USD")


def test_report_lines():
    table = RateTable(parse_feed(DAY1))
    ledger = Ledger("EUR")
    ledger.post("ops-gbp", Money("860", "GBP"), table)
    ledger.post("ops-usd", Money("540", "USD"), table)
    assert ledger.report(RateTable(parse_feed(DAY2))).splitlines() == [
        "ops-gbp             1000.00 +0.00",
        "ops-usd              514.29 +14.29",
    ]
