"""Sums of integer series."""


def total_up_to(n):
    """1 + 2 + ... + n (0 for n < 1)."""
    return sum(range(1, n + 1))
