"""Invoices for subscription customers."""
from dataclasses import dataclass, field
from decimal import Decimal

from money import Money, zero

VAT = {"DE": Decimal("0.19"), "FR": Decimal("0.20"), "CH": Decimal("0.081")}


@dataclass
class Line:
    description: str
    unit_price: Money
    quantity: int = 1

    def amount(self) -> Money:
        return self.unit_price.times(self.quantity)


@dataclass
class Invoice:
    customer: str
    country: str
    currency: str
    lines: list[Line] = field(default_factory=list)

    def add(self, description: str, unit_price: Money, quantity: int = 1) -> None:
        if quantity < 1:
            raise ValueError("quantity must be positive")
        self.lines.append(Line(description, unit_price, quantity))

    def subtotal(self) -> Money:
        total = zero(self.currency)
        for line in self.lines:
            total += line.amount()
        return total

    def total(self) -> Money:
        net = self.subtotal()
        return (net + net.times(VAT[self.country])).rounded()
