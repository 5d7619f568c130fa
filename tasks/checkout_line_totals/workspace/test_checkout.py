import pytest

from cart import Cart, CartError
from catalog import FeedError, parse_feed
from money import MoneyError, format_cents, percent_of, split_evenly, to_cents
from receipt import receipt_lines, refund_cents

FEED = """
; sku | name | price | taxable
MUG-1 | Enamel mug | 19.99 | y
TEA-2 | Loose tea 100g | 4.35 | n
CARD-3 | Gift card | 25.00 | n
"""


def cart():
    return Cart(parse_feed(FEED))


def test_feed_is_parsed():
    catalog = parse_feed(FEED)
    assert sorted(catalog) == ["CARD-3", "MUG-1", "TEA-2"]
    assert catalog["CARD-3"].price_cents == 2500
    assert catalog["MUG-1"].taxable and not catalog["TEA-2"].taxable


def test_feed_errors_name_the_line():
    with pytest.raises(FeedError, match="feed line 2"):
        parse_feed("A|a|1.00|y\nB|b|1.234|y")
    with pytest.raises(FeedError, match="duplicate"):
        parse_feed("A|a|1.00|y\nA|a|2.00|y")


def test_money_helpers():
    assert format_cents(-5) == "-0.05"
    assert percent_of(1999, 10) == 200
    assert split_evenly(1000, 3) == [334, 333, 333]
    with pytest.raises(MoneyError):
        to_cents("1.2.3")


def test_feed_prices_are_exact():
    catalog = parse_feed(FEED)
    assert catalog["MUG-1"].price_cents == 1999
    assert catalog["TEA-2"].price_cents == 435


def test_cart_total_with_tax():
    c = cart().add("MUG-1", 2).add("TEA-2")
    # 2 x 19.99 + 4.35 = 44.33; tax 8 % of the mug lines 39.98 = 3.20
    assert c.summary() == {"subtotal": "44.33", "discount": "0.00", "tax": "3.20", "credit": "0.00", "total": "47.53"}


def test_receipt_shows_line_prices():
    lines = receipt_lines(cart().add("MUG-1").add("CARD-3"))
    assert lines[1].endswith(" 19.99")
    assert lines[0].endswith(" 25.00")


def test_refund_with_coupon():
    c = cart().add("MUG-1", 3)
    c.apply_coupon(10)
    # 19.99 - 2.00 coupon = 17.99, + 8 % tax 1.44 = 19.43
    assert refund_cents(c, "MUG-1", 1) == 1943


def test_store_credit_reduces_total():
    c = cart().add("CARD-3")
    c.apply_store_credit("5.00")
    assert c.total_cents() == 2000


def test_cart_rejects_bad_input():
    with pytest.raises(CartError):
        cart().add("NOPE")
    with pytest.raises(CartError):
        cart().apply_coupon(75)


def test_order_record_round_trips_through_json():
    from orders import EmptyCart, from_json, place_order, to_json

    order = place_order(cart().add("CARD-3", 2), "c-17", instalments=3)
    assert from_json(to_json(order)) == order
    assert order["instalments"] == ["16.67", "16.67", "16.66"]
    with pytest.raises(EmptyCart):
        place_order(cart(), "c-17")
