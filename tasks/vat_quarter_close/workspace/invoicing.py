"""Customer invoices: each line is priced and taxed to the cent."""
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from money import to_cents


@dataclass(frozen=True)
class InvoiceLine:
    description: str
    quantity: Decimal
    unit_price: Decimal
    vat_rate: Decimal

    def net(self) -> Decimal:
        return to_cents(self.quantity * self.unit_price)

    def vat(self) -> Decimal:
        return to_cents(self.net() * self.vat_rate)


@dataclass
class Invoice:
    number: str
    issued_on: date
    lines: list[InvoiceLine] = field(default_factory=list)

    def net(self) -> Decimal:
        return sum((line.net() for line in self.lines), Decimal(0))

    def vat(self) -> Decimal:
        return sum((line.vat() for line in self.lines), Decimal(0))

    def gross(self) -> Decimal:
        return self.net() + self.vat()
