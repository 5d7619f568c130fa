from datetime import date
from decimal import Decimal

import pytest

from currency import MissingRate, parse_rates, to_reporting
from digest import digest_recipients, morning_digest
from formatting import money, render
from records import in_period, parse_sales
from report import grand_total, region_lines

EXPORT = """order_id,region,date,amount
1001,west,2024-03-01,120.00
1002,east,2024-03-01,80.50
1003,West,2024-03-02,30.25
1004,north,2024-03-02,10.00
1005,east,2024-03-03,19.50
"""


def test_parse_normalises_regions():
    sales = parse_sales(EXPORT)
    assert [s.region for s in sales] == ["WEST", "EAST", "WEST", "NORTH", "EAST"]
    with pytest.raises(ValueError, match="line 2"):
        parse_sales("order_id,region,date,amount\n1,w,2024-13-01,1\n")


def test_region_lines_are_sorted_and_counted():
    lines = region_lines(parse_sales(EXPORT))
    assert [(l.region, l.orders) for l in lines] == [("EAST", 2), ("NORTH", 1), ("WEST", 2)]
    assert lines[0].total == Decimal("100.00")


def test_each_region_total_covers_only_its_own_orders():
    lines = region_lines(parse_sales(EXPORT))
    assert {l.region: l.total for l in lines} == {
        "EAST": Decimal("100.00"),
        "NORTH": Decimal("10.00"),
        "WEST": Decimal("150.25"),
    }


def test_region_totals_add_up_to_grand_total():
    sales = parse_sales(EXPORT)
    assert sum(l.total for l in region_lines(sales)) == grand_total(sales) == Decimal("260.25")


def test_money_rounds_half_up():
    assert money(Decimal("1234.565")) == "1,234.57"


def test_render_single_region():
    text = render(parse_sales("order_id,region,date,amount\n7,south,2024-03-01,5\n"))
    assert text.splitlines() == ["SOUTH     1          5.00", "TOTAL     1          5.00"]


def test_period_filter_includes_both_ends():
    sales = parse_sales(EXPORT)
    assert [s.order_id for s in in_period(sales, date(2024, 3, 2), date(2024, 3, 3))] == ["1003", "1004", "1005"]
    with pytest.raises(ValueError):
        in_period(sales, date(2024, 3, 3), date(2024, 3, 2))


def test_conversion_to_the_reporting_currency():
    rates = parse_rates("# month end\nEUR 1.0842\ngbp 1.2710\n")
    sales = parse_sales("order_id,region,date,amount,currency\n9,west,2024-03-04,100.00,eur\n10,west,2024-03-04,2.50,\n")
    assert [(s.amount, s.currency) for s in to_reporting(sales, rates)] == [(Decimal("108.42"), "USD"), (Decimal("2.50"), "USD")]
    with pytest.raises(MissingRate, match="CHF"):
        to_reporting(parse_sales("order_id,region,date,amount,currency\n11,west,2024-03-04,1,CHF\n"), rates)
    with pytest.raises(ValueError, match="line 1"):
        parse_rates("EUR lots")


def test_morning_digest_for_one_region():
    export = "order_id,region,date,amount,currency\n21,south,2024-03-05,40.00,EUR\n22,south,2024-03-05,10.00,USD\n23,south,2024-03-06,1.00,USD\n"
    subject, body = morning_digest(parse_sales(export), date(2024, 3, 5), date(2024, 3, 5), parse_rates("EUR 1.10"))
    assert subject == "Sales 2024-03-05: 2 orders, 54.00"
    assert body.splitlines() == ["SOUTH     2         54.00", "TOTAL     2         54.00", "", "Top region: SOUTH", "Converted from: EUR"]
    assert morning_digest([], date(2024, 3, 1), date(2024, 3, 2), {})[1] == "No orders in this period."
    assert digest_recipients(parse_sales(EXPORT), date(2024, 3, 2), date(2024, 3, 3)) == [
        "dana.east@example.com", "sam.north@example.com", "li.west@example.com", "sales-leads@example.com"]
