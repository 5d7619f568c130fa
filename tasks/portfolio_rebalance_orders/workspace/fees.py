"""The broker's commission schedule."""
from decimal import ROUND_HALF_UP, Decimal

RATE = Decimal("0.0025")
MINIMUM = Decimal("1.00")
MAXIMUM = Decimal("25.00")


def commission(notional):
    """0.25 % of the order's value, at least 1.00 and at most 25.00."""
    fee = (abs(notional) * RATE).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return min(MAXIMUM, max(MINIMUM, fee))
