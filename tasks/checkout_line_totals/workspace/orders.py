"""Placing an order: freezing a cart into the record the payment and warehouse services read."""
import itertools
import json

from money import format_cents, split_evenly

_numbers = itertools.count(1001)


class EmptyCart(ValueError):
    pass


def place_order(cart, customer, instalments=1):
    """The order record as a dict of plain JSON types. Amounts go out as decimal strings."""
    if not cart.lines:
        raise EmptyCart("nothing to order")
    total = cart.total_cents()
    return {
        "number": next(_numbers),
        "customer": customer,
        "lines": [
            {
                "sku": sku,
                "name": line.product.name,
                "quantity": line.quantity,
                "unit_price": format_cents(line.product.price_cents),
                "amount": format_cents(line.total_cents),
            }
            for sku, line in sorted(cart.lines.items())
        ],
        "totals": cart.summary(),
        "instalments": [format_cents(part) for part in split_evenly(total, instalments)],
    }


def to_json(order):
    return json.dumps(order, sort_keys=True, separators=(",", ":"))


def from_json(text):
    order = json.loads(text)
    missing = {"number", "customer", "lines", "totals"} - set(order)
    if missing:
        raise ValueError(f"order record lacks {sorted(missing)}")
    return order
