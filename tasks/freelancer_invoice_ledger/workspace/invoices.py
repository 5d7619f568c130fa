"""Invoices for billable hours. All money is Decimal, rounded half-up to the cent at each line."""
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass
class LineItem:
    description: str
    hours: Decimal
    rate: Decimal

    @property
    def amount(self) -> Decimal:
        return cents(self.hours * self.rate)


@dataclass
class Invoice:
    number: str
    client: str
    vat_rate: Decimal = Decimal("0.19")
    lines: list = field(default_factory=list)
    payments: list = field(default_factory=list)

    def bill(self, description: str, hours, rate) -> None:
        self.lines.append(LineItem(description, Decimal(hours), Decimal(rate)))

    @property
    def net(self) -> Decimal:
        return sum((line.amount for line in self.lines), Decimal("0"))

    @property
    def total(self) -> Decimal:
        return self.net + cents(self.net * self.vat_rate)

    @property
    def outstanding(self) -> Decimal:
        return self.total - sum(self.payments, Decimal("0"))
