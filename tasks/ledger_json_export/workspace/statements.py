"""Statements the finance team reads off a ledger: monthly movements and a simple profit and loss."""
from decimal import Decimal

INCOME_PREFIXES = ("sales", "interest")
EXPENSE_PREFIXES = ("bank_fees", "rent", "salaries", "software")


def month_of(day):
    return f"{day.year:04d}-{day.month:02d}"


def monthly_movements(ledger, account):
    """{month: net change of `account`}, months in order."""
    out = {}
    for txn in sorted(ledger.transactions, key=lambda t: t.booked_on):
        delta = sum((p.amount for p in txn.postings if p.account == account), Decimal(0))
        if delta:
            key = month_of(txn.booked_on)
            out[key] = out.get(key, Decimal(0)) + delta
    return out


def profit_and_loss(ledger):
    """Income is booked negative (credit), expenses positive (debit); profit = -(income + expenses)."""
    income = Decimal(0)
    expenses = Decimal(0)
    for account, balance in ledger.trial_balance().items():
        if account.startswith(INCOME_PREFIXES):
            income += balance
        elif account.startswith(EXPENSE_PREFIXES):
            expenses += balance
    return {"income": -income, "expenses": expenses, "profit": -(income + expenses)}


def largest_transactions(ledger, n=3):
    def size(txn):
        return sum((p.amount for p in txn.postings if p.amount > 0), Decimal(0))

    return [t.txn_id for t in sorted(ledger.transactions, key=size, reverse=True)[:n]]
