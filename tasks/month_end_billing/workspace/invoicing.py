"""Invoices: one per billing date, numbered per customer, labelled with the months they cover."""
from dataclasses import dataclass

from dates import add_months, month_label


@dataclass(frozen=True)
class Invoice:
    number: str
    customer: str
    issued_on: object
    covers: str
    amount_cents: int


def covers_label(start, months):
    """"2026-01" for one month, "2026-01..2026-03" for a quarter."""
    last = add_months(start, months - 1)
    first_label, last_label = month_label(start), month_label(last)
    return first_label if first_label == last_label else f"{first_label}..{last_label}"


def invoices_for(subscription, count):
    out = []
    for i, day in enumerate(subscription.billing_dates(count), start=1):
        out.append(
            Invoice(
                number=f"{subscription.customer.upper()}-{i:04d}",
                customer=subscription.customer,
                issued_on=day,
                covers=covers_label(day, subscription.plan.months),
                amount_cents=subscription.plan.price_cents,
            )
        )
    return out


def revenue_by_month(invoices):
    totals = {}
    for inv in invoices:
        key = month_label(inv.issued_on)
        totals[key] = totals.get(key, 0) + inv.amount_cents
    return dict(sorted(totals.items()))


def credit_note(invoice, cents, reason):
    """A negative invoice against `invoice`, for refunds and plan-change credits."""
    if not 0 < cents <= invoice.amount_cents:
        raise ValueError(f"credit of {cents} against an invoice of {invoice.amount_cents}")
    return Invoice(f"{invoice.number}-CR", invoice.customer, invoice.issued_on, f"credit: {reason}", -cents)
