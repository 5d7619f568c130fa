"""Borrower-facing figures derived from the schedule."""

from schedule import amortize


def total_interest_cents(principal_cents, apr_percent, months):
    return sum(row.interest for row in amortize(principal_cents, apr_percent, months))


def payoff_after_cents(principal_cents, apr_percent, months, payments_made):
    """Balance still owed after `payments_made` regular payments (what an early payoff costs, before fees)."""
    rows = amortize(principal_cents, apr_percent, months)
    if payments_made == 0:
        return principal_cents
    if payments_made > len(rows):
        raise ValueError(f"only {len(rows)} payments in this schedule")
    return rows[payments_made - 1].balance
