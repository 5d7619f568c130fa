from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from catalog import REGION_MULTIPLIER, TAX_RATE, product

FIVE_CENTS = Decimal("0.05")
_overrides = {}  # (machine, code) -> Decimal


def round_to_coin(amount):
    return (amount / FIVE_CENTS).quantize(Decimal("1"), rounding=ROUND_HALF_UP) * FIVE_CENTS


@lru_cache(maxsize=256)
def shelf_price(machine, region, code):
    override = _overrides.get((machine, code))
    if override is not None:
        return override
    p = product(code)
    net = p.base_price * REGION_MULTIPLIER[region]
    if p.taxable:
        net *= 1 + TAX_RATE[region]
    return round_to_coin(net)


def set_override(machine, code, price):
    product(code)
    price = Decimal(price)
    if price <= 0:
        raise ValueError("override must be positive")
    _overrides[(machine, code)] = price
    shelf_price.cache_clear()


def clear_override(machine, code):
    _overrides.pop((machine, code), None)
    shelf_price.cache_clear()


def overrides_for(machine):
    return {code: price for (m, code), price in sorted(_overrides.items()) if m == machine}


def reset():
    _overrides.clear()
    shelf_price.cache_clear()


def explain(machine, region, code):
    p = product(code)
    steps = [f"base {p.base_price}", f"x{REGION_MULTIPLIER[region]} ({region})"]
    if p.taxable:
        steps.append(f"+{TAX_RATE[region] * 100:.0f}% tax")
    if (machine, code) in _overrides:
        steps.append(f"override {_overrides[(machine, code)]}")
    steps.append(f"= {shelf_price(machine, region, code)}")
    return ", ".join(steps)
