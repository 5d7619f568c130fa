"""Price book: turns an account's plan and metered usage into invoice lines."""
from dataclasses import dataclass, field
from decimal import Decimal

from invoice import LineItem


@dataclass(frozen=True)
class Account:
    account_id: str
    plan: str
    region: str = "us"
    # meter name -> units used in the period
    usage: dict[str, Decimal] = field(default_factory=dict)


class PriceBook:
    def __init__(
        self,
        plans: dict[str, Decimal],
        meter_rates: dict[str, Decimal],
        included: dict[str, dict[str, Decimal]] | None = None,
    ):
        self.plans = plans
        self.meter_rates = meter_rates
        # plan -> meter -> units covered by the plan fee
        self.included = included or {}

    def charges_for(self, account: Account) -> list[LineItem]:
        if account.plan not in self.plans:
            raise KeyError(f"account {account.account_id} is on unknown plan {account.plan!r}")
        lines = [LineItem(f"{account.plan} plan", Decimal(1), self.plans[account.plan])]
        allowance = self.included.get(account.plan, {})
        # Sorted so invoices list meters in a stable order.
        for meter, used in sorted(account.usage.items()):
            billable = used - allowance.get(meter, Decimal(0))
            if billable > 0:
                lines.append(LineItem(f"{meter} overage", billable, self.meter_rates[meter]))
        return lines
