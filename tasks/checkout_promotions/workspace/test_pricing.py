from cart import Cart
from customers import GUEST, Customer
from pricing import quote

SILVER = Customer("sam@example.com", tier="silver")
GOLD = Customer("gil@example.com", tier="gold")


def test_member_over_threshold_gets_ten_percent():
    q = quote(SILVER, Cart().add("lamp", 9000))
    assert q.discount_cents == 900
    assert q.total_cents == 9000 - 900 + 699


def test_member_under_threshold_without_coupon_pays_full_price():
    q = quote(SILVER, Cart().add("mug", 2500))
    assert q.discount_cents == 0


def test_member_coupon_works_below_threshold():
    q = quote(SILVER, Cart(coupon=" member10 ").add("mug", 2500))
    assert q.discount_cents == 250


def test_guest_with_member_coupon_gets_no_discount():
    q = quote(GUEST, Cart(coupon="MEMBER10").add("mug", 2500))
    assert q.discount_cents == 0, f"guest got {q.discount_cents} cents off"
    assert q.total_cents == 2500 + 699


def test_bulk_discount_stacks_after_member_discount():
    q = quote(SILVER, Cart().add("sock", 900, quantity=10))
    assert q.discount_cents == 900 + 500


def test_guest_bulk_order_with_coupon_pays_for_shipping():
    q = quote(GUEST, Cart(coupon="member10").add("sock", 1050, quantity=10))
    assert q.discount_cents == 500
    assert q.shipping_cents == 0, "10000 cents of goods after the bulk discount is exactly the free-shipping line"


def test_gold_members_always_ship_free():
    assert quote(GOLD, Cart().add("pen", 300)).shipping_cents == 0
    assert quote(GUEST, Cart().add("pen", 300)).shipping_cents == 699
