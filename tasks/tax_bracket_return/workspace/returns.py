from dataclasses import dataclass, field
from decimal import Decimal

from brackets import STANDARD_DEDUCTION, TaxError, effective_rate, money, tax_on

CREDIT_PER_CHILD = Decimal("2000")


@dataclass
class TaxReturn:
    taxpayer: str
    year: int
    filing_status: str
    wages: Decimal
    interest: Decimal = Decimal(0)
    itemized: dict = field(default_factory=dict)
    children: int = 0
    withheld: Decimal = Decimal(0)

    def __post_init__(self):
        if self.filing_status not in STANDARD_DEDUCTION:
            raise TaxError(f"unknown filing status {self.filing_status!r}")
        if self.children < 0:
            raise TaxError("children cannot be negative")

    @property
    def gross_income(self):
        return money(self.wages + self.interest)

    @property
    def deduction(self):
        itemized = sum(self.itemized.values(), Decimal(0))
        return max(itemized, STANDARD_DEDUCTION[self.filing_status])

    @property
    def taxable_income(self):
        return max(Decimal(0), self.gross_income - self.deduction)

    def tax_before_credits(self):
        return tax_on(self.taxable_income, self.filing_status)

    def credits(self):
        return min(self.tax_before_credits(), CREDIT_PER_CHILD * self.children)

    def tax_due(self):
        return money(self.tax_before_credits() - self.credits())

    def balance(self):
        """Positive: owed; negative: refund."""
        return money(self.tax_due() - self.withheld)

    def effective_rate(self):
        return effective_rate(self.tax_due(), self.gross_income)

    def amended(self, **changes):
        fields = dict(self.__dict__)
        fields.update(changes)
        return TaxReturn(**fields)
