"""Formatting integer cents for borrower documents."""


def dollars(cents):
    """12345678 -> '$123,456.78'; negatives in parentheses, as the disclosures print them."""
    sign = cents < 0
    whole, part = divmod(abs(int(cents)), 100)
    text = f"${whole:,}.{part:02d}"
    return f"({text})" if sign else text


def parse_dollars(text):
    """'$1,199.11' -> 119911."""
    cleaned = text.strip().replace("$", "").replace(",", "")
    negative = cleaned.startswith("(") and cleaned.endswith(")")
    cleaned = cleaned.strip("()")
    whole, _, part = cleaned.partition(".")
    if not whole.isdigit() or (part and (not part.isdigit() or len(part) > 2)):
        raise ValueError(f"not a dollar amount: {text!r}")
    cents = int(whole) * 100 + int(part.ljust(2, "0") or 0)
    return -cents if negative else cents
