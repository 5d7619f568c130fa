"""Subscribers wired to the order events."""
from collections import Counter


def mask_email(email: str) -> str:
    user, _, domain = email.partition("@")
    return f"{user[:1]}***@{domain}"


class AuditLog:
    """Keeps every event, with personal data redacted, for the compliance export."""

    def __init__(self):
        self.entries: list[dict] = []

    def __call__(self, event: dict) -> None:
        event["customer"]["email"] = mask_email(event["customer"]["email"])
        self.entries.append(event)


class PlanAnalytics:
    """Counts orders per customer plan; must not see who the customer is."""

    def __init__(self):
        self.orders_by_plan: Counter = Counter()

    def __call__(self, event: dict) -> None:
        customer = event.pop("customer")
        self.orders_by_plan[customer["plan"]] += 1


class CrmSync:
    """Upserts the customer's contact in the CRM, keyed by email."""

    def __init__(self):
        self.contacts: dict[str, dict] = {}

    def __call__(self, event: dict) -> None:
        customer = event["customer"]
        contact = self.contacts.setdefault(customer["email"], {"name": customer["name"], "orders": 0})
        contact["orders"] += 1
