from datetime import timedelta
from decimal import Decimal

from billing import invoice, total

RETRY_AFTER_DAYS = (3, 7)


class Dunning:
    """Tracks unpaid invoices, retries card payments and freezes members who keep failing."""

    def __init__(self):
        self.balances = {}
        self.failures = {}
        self.frozen = set()

    def bill(self, member, year, month):
        amount = total(invoice(member, year, month))
        self.balances[member.member_id] = self.balances.get(member.member_id, Decimal("0.00")) + amount
        return amount

    def payment_failed(self, member, day):
        count = self.failures.get(member.member_id, 0)
        self.failures[member.member_id] = count + 1
        if count >= len(RETRY_AFTER_DAYS):
            self.frozen.add(member.member_id)
            return "frozen"
        return f"retry {(day + timedelta(days=RETRY_AFTER_DAYS[count])).isoformat()}"

    def paid(self, member, amount):
        owed = self.owed(member)
        if amount > owed:
            raise ValueError(f"payment {amount} exceeds balance {owed}")
        self.balances[member.member_id] = owed - amount
        if self.balances[member.member_id] == 0:
            self.failures.pop(member.member_id, None)
            self.frozen.discard(member.member_id)

    def owed(self, member):
        return self.balances.get(member.member_id, Decimal("0.00"))

    def status(self, member):
        return "frozen" if member.member_id in self.frozen else "active"


def revenue_report(members, year, month):
    joining = membership = classes = Decimal("0.00")
    for m in members:
        for label, amount in invoice(m, year, month):
            if label == "joining fee":
                joining += amount
            elif label.endswith("extra classes"):
                classes += amount
            else:
                membership += amount
    return {"members": len(members), "joining": str(joining), "membership": str(membership), "classes": str(classes)}
