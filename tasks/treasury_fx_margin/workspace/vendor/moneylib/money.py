"""Money: a Decimal amount in one currency, always rounded to that currency's minor units."""
from decimal import ROUND_HALF_EVEN, Decimal

from .currency import Currency, currency


class CurrencyMismatch(ValueError):
    pass


class Money:
    __slots__ = ("amount", "currency")

    def __init__(self, amount, cur, rounding=ROUND_HALF_EVEN):
        cur = cur if isinstance(cur, Currency) else currency(cur)
        self.currency = cur
        self.amount = Decimal(str(amount)).quantize(cur.quantum, rounding=rounding)

    def _same(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        if other.currency != self.currency:
            raise CurrencyMismatch(f"{self.currency.code} and {other.currency.code}")
        return other

    def __add__(self, other):
        if other == 0:
            return self
        other = self._same(other)
        return Money(self.amount + other.amount, self.currency)

    __radd__ = __add__

    def __sub__(self, other):
        other = self._same(other)
        return Money(self.amount - other.amount, self.currency)

    def __neg__(self):
        return Money(-self.amount, self.currency)

    def __mul__(self, factor):
        return Money(self.amount * Decimal(str(factor)), self.currency)

    def __eq__(self, other):
        if isinstance(other, Money):
            return self.currency == other.currency and self.amount == other.amount
        return other == 0 and self.amount == 0

    def __hash__(self):
        return hash((self.amount, self.currency))

    def __lt__(self, other):
        return self.amount < self._same(other).amount

    def __repr__(self):
        return f"Money('{self.amount}', '{self.currency.code}')"

    def __str__(self):
        return f"{self.amount} {self.currency.code}"
