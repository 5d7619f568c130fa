"""Invoices: the charges owed by one account for one billing period."""
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


@dataclass(frozen=True)
class LineItem:
    description: str
    quantity: Decimal
    unit_price: Decimal

    @property
    def amount(self) -> Decimal:
        return (self.quantity * self.unit_price).quantize(CENT, rounding=ROUND_HALF_UP)


class Invoice:
    """Charges for one account and period; the billing run appends lines as it prices usage."""

    def __init__(self, account_id: str, period: str, lines: list[LineItem] = [], tax_rate: Decimal = Decimal("0")):
        self.account_id = account_id
        self.period = period
        self.lines = lines
        self.tax_rate = tax_rate

    def add_line(self, item: LineItem) -> None:
        if item.quantity < 0:
            raise ValueError(f"negative quantity on line {item.description!r}")
        self.lines.append(item)

    def subtotal(self) -> Decimal:
        return sum((line.amount for line in self.lines), Decimal("0"))

    def tax(self) -> Decimal:
        # Tax is rounded once on the subtotal, not per line, as the tax authority requires.
        return (self.subtotal() * self.tax_rate).quantize(CENT, rounding=ROUND_HALF_UP)

    def total(self) -> Decimal:
        return self.subtotal() + self.tax()
