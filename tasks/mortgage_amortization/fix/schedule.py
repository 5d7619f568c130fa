"""Month-by-month amortization schedule for a fixed-rate loan, in integer cents."""

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

from rates import level_payment_cents, monthly_rate


@dataclass(frozen=True)
class Row:
    month: int
    payment: int
    interest: int
    principal: int
    balance: int


def amortize(principal_cents, apr_percent, months):
    """Rows for each month. The last payment is trimmed so the balance lands exactly on zero."""
    rate = monthly_rate(apr_percent)
    payment = level_payment_cents(principal_cents, apr_percent, months)
    balance, rows = principal_cents, []
    for month in range(1, months + 1):
        interest = int((Decimal(balance) * rate).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))
        this_payment = min(payment, balance + interest)
        balance -= this_payment - interest
        rows.append(Row(month, this_payment, interest, this_payment - interest, balance))
        if balance == 0:
            break
    return rows
