"""Conversion of sales into the reporting currency with the finance team's month-end rates."""

from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

REPORTING = "USD"


class MissingRate(KeyError):
    pass


def parse_rates(text):
    """`EUR 1.0842` per line: the value of one unit in the reporting currency."""
    rates = {REPORTING: Decimal("1")}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        code, _, value = line.partition(" ")
        try:
            rate = Decimal(value.strip())
        except InvalidOperation:
            raise ValueError(f"rates line {lineno}: {value.strip()!r} is not a number") from None
        if len(code) != 3 or not code.isalpha() or rate <= 0:
            raise ValueError(f"rates line {lineno}: bad rate {raw!r}")
        rates[code.upper()] = rate
    return rates


def to_reporting(sales, rates):
    out = []
    for sale in sales:
        if sale.currency not in rates:
            raise MissingRate(f"no {sale.currency} rate for order {sale.order_id}")
        amount = (sale.amount * rates[sale.currency]).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        out.append(replace(sale, amount=amount, currency=REPORTING))
    return out
