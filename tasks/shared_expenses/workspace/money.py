"""Amounts are integer cents everywhere; text is only parsed and printed at the edges."""

import re

_AMOUNT = re.compile(r"^\$?(\d+)(?:\.(\d{1,2}))?$")


def parse_cents(text):
    match = _AMOUNT.match(text.strip().replace(",", ""))
    if not match:
        raise ValueError(f"not an amount: {text!r}")
    whole, frac = match.groups()
    return int(whole) * 100 + int((frac or "0").ljust(2, "0"))


def format_cents(cents):
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100}.{abs(cents) % 100:02d}"
