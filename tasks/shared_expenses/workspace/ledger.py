"""Group ledger: who paid what, who owes what, and the transfers that settle it."""

from dataclasses import dataclass

from splitting import split_by_shares, split_equally


@dataclass(frozen=True)
class Expense:
    description: str
    paid_by: str
    amount_cents: int
    split: dict


class Ledger:
    def __init__(self, members):
        self.members = list(members)
        self.expenses = []

    def add_equal(self, description, paid_by, amount_cents, among=None):
        split = split_equally(amount_cents, among or self.members)
        self.expenses.append(Expense(description, paid_by, amount_cents, split))

    def add_weighted(self, description, paid_by, amount_cents, shares):
        split = split_by_shares(amount_cents, shares)
        self.expenses.append(Expense(description, paid_by, amount_cents, split))

    def balances(self):
        """Positive: the group owes this member. Negative: the member owes the group."""
        balance = {m: 0 for m in self.members}
        for e in self.expenses:
            balance[e.paid_by] += e.amount_cents
            for person, owed in e.split.items():
                balance[person] -= owed
        return balance

    def settlement(self):
        """Greedy transfers (debtor, creditor, cents), largest debts first."""
        balance = self.balances()
        debtors = sorted((b, m) for m, b in balance.items() if b < 0)
        creditors = sorted(((b, m) for m, b in balance.items() if b > 0), reverse=True)
        transfers = []
        while debtors and creditors:
            (debt, debtor), (credit, creditor) = debtors[0], creditors[0]
            amount = min(-debt, credit)
            transfers.append((debtor, creditor, amount))
            debtors[0], creditors[0] = (debt + amount, debtor), (credit - amount, creditor)
            if debtors[0][0] == 0:
                debtors.pop(0)
            if creditors[0][0] == 0:
                creditors.pop(0)
        return transfers
