"""Budget categories by counterparty account, with memo keywords as a fallback."""
from collections import defaultdict
from decimal import Decimal

from transactions import Transaction

BY_IBAN = {
    "DE89370400440532013000": "rent",
    "DE02120300000000202051": "utilities",
}
BY_MEMO = {"salary": "income", "grocer": "groceries", "market": "groceries"}


def category(txn: Transaction) -> str:
    iban = txn.raw["IBAN"].replace(" ", "")
    if iban in BY_IBAN:
        return BY_IBAN[iban]
    memo = txn.raw["Memo"].lower()
    for word, cat in BY_MEMO.items():
        if word in memo:
            return cat
    return "other"


def totals(txns: list[Transaction]) -> dict[str, Decimal]:
    out: dict[str, Decimal] = defaultdict(Decimal)
    for t in txns:
        out[category(t)] += t.amount
    return dict(out)
