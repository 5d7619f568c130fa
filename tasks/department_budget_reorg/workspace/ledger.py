"""The company's general ledger: one per company, shared by every department."""
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Entry:
    account: str
    amount: Decimal
    department: str
    memo: str


class Ledger:
    def __init__(self, company: str):
        self.company = company
        self.entries: list[Entry] = []

    def post(self, account: str, amount: Decimal, department: str, memo: str) -> None:
        self.entries.append(Entry(account, amount, department, memo))

    def balance(self, account: str, department: str | None = None) -> Decimal:
        return sum(
            (e.amount for e in self.entries if e.account == account and department in (None, e.department)),
            Decimal(0),
        )
