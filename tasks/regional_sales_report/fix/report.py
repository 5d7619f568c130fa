"""Regional summary: one subtotal line per region, then a grand total."""

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class RegionLine:
    region: str
    orders: int
    total: Decimal


def region_lines(sales):
    """Control-break over sales sorted by region."""
    lines = []
    current, orders, subtotal = None, 0, Decimal("0")
    for sale in sorted(sales, key=lambda s: (s.region, s.order_id)):
        if sale.region != current:
            if current is not None:
                lines.append(RegionLine(current, orders, subtotal))
            current, orders, subtotal = sale.region, 0, Decimal("0")
        orders += 1
        subtotal += sale.amount
    if current is not None:
        lines.append(RegionLine(current, orders, subtotal))
    return lines


def grand_total(sales):
    return sum((s.amount for s in sales), Decimal("0"))
