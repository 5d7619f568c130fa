"""Money values: an amount in a currency, rounded to cents when presented."""
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache


class CurrencyMismatch(ValueError):
    pass


@dataclass
class Money:
    amount: Decimal
    currency: str

    def _same_currency(self, other: "Money") -> None:
        if other.currency != self.currency:
            raise CurrencyMismatch(f"cannot combine {self.currency} with {other.currency}")

    def __add__(self, other: "Money") -> "Money":
        self._same_currency(other)
        return Money(self.amount + other.amount, self.currency)

    def __iadd__(self, other: "Money") -> "Money":
        self._same_currency(other)
        self.amount += other.amount
        return self

    def times(self, factor) -> "Money":
        return Money(self.amount * Decimal(factor), self.currency)

    def rounded(self) -> "Money":
        return Money(self.amount.quantize(Decimal("0.01"), ROUND_HALF_UP), self.currency)

    def __str__(self) -> str:
        return f"{self.rounded().amount} {self.currency}"


@lru_cache(maxsize=None)
def zero(currency: str) -> Money:
    return Money(Decimal(0), currency)
