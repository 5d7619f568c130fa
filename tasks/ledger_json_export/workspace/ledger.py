"""A double-entry ledger: every transaction's postings sum to zero."""
import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

CENT = Decimal("0.01")


class Unbalanced(ValueError):
    pass


@dataclass(frozen=True)
class Posting:
    account: str
    amount: Decimal


@dataclass(frozen=True)
class Transaction:
    txn_id: str
    booked_on: dt.date
    memo: str
    postings: tuple
    tags: frozenset = field(default=frozenset())

    def __post_init__(self):
        total = sum((p.amount for p in self.postings), Decimal(0))
        if total != 0:
            raise Unbalanced(f"{self.txn_id}: postings sum to {total}")
        for p in self.postings:
            if p.amount != p.amount.quantize(CENT):
                raise ValueError(f"{self.txn_id}: {p.amount} has more than two decimals")


class Ledger:
    def __init__(self, name):
        self.name = name
        self.transactions = []

    def book(self, txn_id, booked_on, memo, *postings, tags=()):
        txn = Transaction(txn_id, booked_on, memo, tuple(Posting(a, Decimal(str(x))) for a, x in postings), frozenset(tags))
        self.transactions.append(txn)
        return txn

    def balance(self, account, until=None):
        total = Decimal(0)
        for txn in self.transactions:
            if until is not None and txn.booked_on > until:
                continue
            total += sum((p.amount for p in txn.postings if p.account == account), Decimal(0))
        return total

    def accounts(self):
        return sorted({p.account for t in self.transactions for p in t.postings})

    def trial_balance(self):
        return {account: self.balance(account) for account in self.accounts()}
