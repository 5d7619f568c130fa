"""The bank's end-of-day rate file: one `BASE/QUOTE,rate` line per pair."""
from decimal import Decimal, InvalidOperation

from vendor.moneylib import currency


class FeedError(ValueError):
    pass


def parse_feed(text):
    rates = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            pair, value = line.split(",")
            base, quote = pair.split("/")
            rate = Decimal(value)
        except (ValueError, InvalidOperation):
            raise FeedError(f"line {number}: cannot read {raw!r}") from None
        currency(base), currency(quote)
        if rate <= 0:
            raise FeedError(f"line {number}: rate must be positive")
        rates[(base.upper(), quote.upper())] = rate
    if not rates:
        raise FeedError("the feed has no rates")
    return rates


class StaticFeed:
    """A feed that serves whatever text it was last given (the file drop, in production)."""

    def __init__(self, text):
        self.text = text

    def latest(self):
        return parse_feed(self.text)
