"""Late fees, charged for each full day an item is kept past its due date."""

DAILY_FEE_CENTS = {"book": 25, "dvd": 100, "magazine": 10}
MAX_FEE_CENTS = {"book": 1000, "dvd": 2500, "magazine": 300}


def days_late(loan, returned_on):
    return max(0, (returned_on - loan.due_on).days)


def late_fee_cents(loan, returned_on):
    return min(MAX_FEE_CENTS[loan.kind], days_late(loan, returned_on) * DAILY_FEE_CENTS[loan.kind])


def patron_balance_cents(returns):
    """Total owed for an iterable of (loan, returned_on) pairs."""
    return sum(late_fee_cents(loan, returned_on) for loan, returned_on in returns)
