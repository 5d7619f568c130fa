"""Exponential backoff with a cap, deterministic so delivery schedules can be tested."""


def delay_seconds(attempt, base=0.5, factor=2.0, cap=30.0):
    """Delay to wait after failed attempt number `attempt` (1-based)."""
    if attempt < 1:
        raise ValueError("attempts are numbered from 1")
    return min(cap, base * factor ** (attempt - 1))
