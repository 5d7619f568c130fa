"""Shopping cart lines and subtotals, all in integer cents."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class LineItem:
    sku: str
    unit_price_cents: int
    quantity: int

    @property
    def total_cents(self):
        return self.unit_price_cents * self.quantity


@dataclass
class Cart:
    lines: list = field(default_factory=list)
    coupon: str = ""

    def add(self, sku, unit_price_cents, quantity=1):
        if quantity < 1:
            raise ValueError("quantity must be at least 1")
        self.lines.append(LineItem(sku, unit_price_cents, quantity))
        return self

    @property
    def subtotal_cents(self):
        return sum(line.total_cents for line in self.lines)

    @property
    def item_count(self):
        return sum(line.quantity for line in self.lines)
