"""Splitting one expense among people. Every split must add back up to the amount paid."""


def split_equally(amount_cents, people):
    """Equal shares, keyed by person, in the order given."""
    if not people:
        raise ValueError("cannot split among nobody")
    share = amount_cents // len(people)
    return {person: share for person in people}


def split_by_shares(amount_cents, shares):
    """Proportional split, e.g. {"ana": 2, "bo": 1} for a room ana used twice as long."""
    total_shares = sum(shares.values())
    if total_shares <= 0 or any(s < 0 for s in shares.values()):
        raise ValueError(f"shares must be non-negative and not all zero: {shares}")
    return {person: amount_cents * s // total_shares for person, s in shares.items()}
