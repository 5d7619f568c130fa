"""Loans of library items. An item is due back by closing time on `due_on`."""

from dataclasses import dataclass, replace
from datetime import date, timedelta

LOAN_DAYS = {"book": 21, "dvd": 7, "magazine": 7}
MAX_RENEWALS = 2
BORROW_LIMITS = {"book": 10, "dvd": 3, "magazine": 5}


@dataclass(frozen=True)
class Loan:
    barcode: str
    patron: str
    kind: str
    borrowed_on: date
    due_on: date
    renewals: int = 0


def checkout(barcode, patron, kind, today):
    if kind not in LOAN_DAYS:
        raise ValueError(f"unknown item kind {kind!r}")
    return Loan(barcode, patron, kind, borrowed_on=today, due_on=today + timedelta(days=LOAN_DAYS[kind]))


def can_borrow(open_loans, patron, kind):
    """Whether `patron` may take one more item of `kind`, given everything currently out."""
    held = sum(1 for loan in open_loans if loan.patron == patron and loan.kind == kind)
    return held < BORROW_LIMITS[kind]


def renew(loan):
    """Extend from the current due date, so renewing early never shortens a loan."""
    if loan.renewals >= MAX_RENEWALS:
        raise ValueError(f"{loan.barcode} has already been renewed {loan.renewals} times")
    return replace(loan, due_on=loan.due_on + timedelta(days=LOAN_DAYS[loan.kind]), renewals=loan.renewals + 1)
