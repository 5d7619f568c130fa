"""The monthly billing run: one invoice per subscription, plus a summary for finance."""
from decimal import Decimal

from invoice import Invoice
from money import Money

PLANS = {"starter": Decimal("19.00"), "team": Decimal("49.00"), "business": Decimal("129.00")}
EXTRA_SEAT = Decimal("7.50")


def invoice_for(sub: dict) -> Invoice:
    inv = Invoice(sub["customer"], sub["country"], sub["currency"])
    inv.add(f"{sub['plan']} plan", Money(PLANS[sub["plan"]], sub["currency"]))
    if sub.get("extra_seats"):
        inv.add("extra seats", Money(EXTRA_SEAT, sub["currency"]), sub["extra_seats"])
    return inv


def run(subscriptions: list[dict]) -> dict[str, str]:
    """Customer -> invoice total, as printed on the finance summary."""
    return {sub["customer"]: str(invoice_for(sub).total()) for sub in subscriptions}
