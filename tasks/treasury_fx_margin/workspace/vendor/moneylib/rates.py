"""Conversion tables.

A RateTable reads from the mapping it is given, {("EUR", "USD"): Decimal("1.0841"), ...}, meaning 1 EUR buys
1.0841 USD. The mapping is used as given, not copied, so a feed can refresh it in place and every table built on it
sees the new rates. Inverse pairs are derived when only one direction is present.
"""
from decimal import Decimal

from .currency import currency
from .money import Money


class MissingRate(LookupError):
    pass


class RateTable:
    def __init__(self, rates):
        self.rates = rates

    def rate(self, base, quote):
        base, quote = base.upper(), quote.upper()
        if base == quote:
            return Decimal(1)
        if (base, quote) in self.rates:
            return Decimal(self.rates[(base, quote)])
        if (quote, base) in self.rates:
            return 1 / Decimal(self.rates[(quote, base)])
        raise MissingRate(f"no rate for {base}/{quote}")

    def convert(self, money, to):
        return Money(money.amount * self.rate(money.currency.code, to), currency(to))

    def apply_margin(self, bps):
        """Widen every stored rate by `bps` basis points against the holder of the base currency, in place."""
        factor = 1 - Decimal(bps) / Decimal(10_000)
        for pair in list(self.rates):
            self.rates[pair] = Decimal(self.rates[pair]) * factor

    def pairs(self):
        return sorted(self.rates)
