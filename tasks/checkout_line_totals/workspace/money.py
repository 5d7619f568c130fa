"""Amounts of money as integer cents, and the conversions at the edges of the system."""


class MoneyError(ValueError):
    pass


def to_cents(text):
    """Parse a decimal amount such as "19.99" or "-4.5" from the catalogue feed into cents."""
    if not isinstance(text, str):
        raise MoneyError(f"amount must be text, got {type(text).__name__}")
    cleaned = text.strip().replace(",", "")
    if not cleaned or cleaned.count(".") > 1:
        raise MoneyError(f"not an amount: {text!r}")
    whole, _, frac = cleaned.partition(".")
    if len(frac) > 2:
        raise MoneyError(f"more than two decimals: {text!r}")
    try:
        value = float(cleaned)
    except ValueError:
        raise MoneyError(f"not an amount: {text!r}") from None
    return int(value * 100)


def format_cents(cents):
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def percent_of(cents, percent):
    """`percent` % of an amount, rounded half away from zero to whole cents."""
    scaled = cents * percent
    quotient, remainder = divmod(abs(scaled), 100)
    if remainder * 2 >= 100:
        quotient += 1
    return quotient if scaled >= 0 else -quotient


def split_evenly(cents, parts):
    """Split an amount into `parts` amounts that differ by at most a cent and sum to it."""
    if parts < 1:
        raise MoneyError("parts must be at least 1")
    base, extra = divmod(cents, parts)
    return [base + 1 if i < extra else base for i in range(parts)]
