from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from brackets import money
from export import loads

DUE_DATES = {1: (4, 15), 2: (6, 15), 3: (9, 15), 4: (1, 15)}
SAFE_HARBOUR = Decimal("1.00")
PENALTY_RATE_PER_DAY = Decimal("0.0002")


@dataclass
class EstimatePlan:
    year: int
    required_annual: Decimal
    payments: dict = field(default_factory=dict)  # quarter -> (date, amount)

    def due_date(self, quarter):
        month, day = DUE_DATES[quarter]
        return date(self.year + (1 if quarter == 4 else 0), month, day)

    def installment(self):
        return money(self.required_annual / 4)

    def pay(self, quarter, when, amount):
        if quarter not in DUE_DATES:
            raise ValueError(f"quarter must be 1-4, got {quarter}")
        self.payments[quarter] = (when, Decimal(amount))

    def penalty(self):
        total = Decimal(0)
        for quarter in DUE_DATES:
            due = self.due_date(quarter)
            when, amount = self.payments.get(quarter, (None, Decimal(0)))
            short = max(Decimal(0), self.installment() - amount)
            if when is not None and when > due:
                total += amount * PENALTY_RATE_PER_DAY * (when - due).days
            total += short * PENALTY_RATE_PER_DAY * 90
        return money(total)


def plan_from_last_year(text, year):
    last = loads(text)
    return EstimatePlan(year, money(last.tax_due() * SAFE_HARBOUR))
