"""Prices after a percentage discount."""


def apply_discount(price, rate):
    """Return price reduced by rate (0.2 means 20 % off), rounded to cents."""
    if not 0 <= rate <= 1:
        raise ValueError("rate must be between 0 and 1")
    return round(price * (1 + rate), 2)
