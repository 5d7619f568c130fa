"""Splitting one expense among people. Every split must add back up to the amount paid."""


def split_equally(amount_cents, people):
    """Equal shares, keyed by person, in the order given."""
    if not people:
        raise ValueError("cannot split among nobody")
    share, leftover = divmod(amount_cents, len(people))
    # The first `leftover` people pay one extra cent each, so the shares add up to the amount.
    return {person: share + (1 if i < leftover else 0) for i, person in enumerate(people)}


def split_by_shares(amount_cents, shares):
    """Proportional split, e.g. {"ana": 2, "bo": 1} for a room ana used twice as long."""
    total_shares = sum(shares.values())
    if total_shares <= 0 or any(s < 0 for s in shares.values()):
        raise ValueError(f"shares must be non-negative and not all zero: {shares}")
    split = {person: amount_cents * s // total_shares for person, s in shares.items()}
    # Largest-remainder method: hand the cents lost to flooring to the biggest fractional parts.
    leftover = amount_cents - sum(split.values())
    by_remainder = sorted(shares, key=lambda p: (-(amount_cents * shares[p] % total_shares), list(shares).index(p)))
    for person in by_remainder[:leftover]:
        split[person] += 1
    return split
