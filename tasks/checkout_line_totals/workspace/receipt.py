"""Printed receipts and refunds of single lines."""
from money import format_cents, percent_of

WIDTH = 40


def receipt_lines(cart):
    out = []
    for sku in sorted(cart.lines):
        line = cart.lines[sku]
        left = f"{line.quantity} x {line.product.name}"
        right = format_cents(line.total_cents)
        out.append(f"{left[: WIDTH - len(right) - 1]:<{WIDTH - len(right)}}{right}")
    for label, value in cart.summary().items():
        if value != "0.00" or label in ("subtotal", "total"):
            out.append(f"{label.upper():<{WIDTH - len(value)}}{value}")
    return out


def refund_cents(cart, sku, quantity):
    """What the customer gets back for returning `quantity` of `sku`: the line's share after coupon, plus tax."""
    line = cart.lines[sku]
    if not 0 < quantity <= line.quantity:
        raise ValueError(f"cannot refund {quantity} of {line.quantity}")
    amount = line.product.price_cents * quantity
    amount -= percent_of(amount, cart.coupon_percent)
    if line.product.taxable:
        amount += percent_of(amount, 8)
    return amount
