"""Checkout quote: member discount, bulk discount and shipping.

Promotion rules (from the merchandising team):
- Members get 10% off when the basket reaches $80, or at any size with the MEMBER10 coupon.
  The coupon is a member perk; guests who type it in get nothing.
- Any basket of 10 or more items gets $5 off, after the member discount.
- Shipping is $6.99, free from $100 of (discounted) goods, and always free for gold members.
"""

from dataclasses import dataclass

MEMBER_RATE_PERCENT = 10
MEMBER_MIN_CENTS = 8000
MEMBER_COUPON = "MEMBER10"
BULK_MIN_ITEMS = 10
BULK_OFF_CENTS = 500
SHIPPING_CENTS = 699
FREE_SHIPPING_MIN_CENTS = 10000


@dataclass(frozen=True)
class Quote:
    subtotal_cents: int
    discount_cents: int
    shipping_cents: int

    @property
    def total_cents(self):
        return self.subtotal_cents - self.discount_cents + self.shipping_cents


def member_discount_cents(customer, cart):
    coupon = cart.coupon.strip().upper()
    if customer.is_member and cart.subtotal_cents >= MEMBER_MIN_CENTS or coupon == MEMBER_COUPON:
        return cart.subtotal_cents * MEMBER_RATE_PERCENT // 100
    return 0


def bulk_discount_cents(cart, remaining_cents):
    if cart.item_count >= BULK_MIN_ITEMS:
        return min(BULK_OFF_CENTS, remaining_cents)
    return 0


def shipping_cents(customer, goods_cents):
    if goods_cents >= FREE_SHIPPING_MIN_CENTS or customer.is_member and customer.tier == "gold":
        return 0
    return SHIPPING_CENTS


def quote(customer, cart):
    subtotal = cart.subtotal_cents
    discount = member_discount_cents(customer, cart)
    discount += bulk_discount_cents(cart, subtotal - discount)
    return Quote(subtotal, discount, shipping_cents(customer, subtotal - discount))
