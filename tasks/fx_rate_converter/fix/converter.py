"""Currency conversion using rates relative to one base currency.

Rates are loaded lazily on first use, from whichever request thread gets there
first; loading is slow, so it happens once and the table is then shared.
"""
import threading
from decimal import Decimal

from money import Money


class UnknownCurrency(KeyError):
    pass


class CurrencyConverter:
    def __init__(self, provider):
        self._provider = provider
        self._lock = threading.Lock()
        self._rates = None

    def _table(self):
        if self._rates is None:
            with self._lock:
                # Another thread may have loaded the table while we waited for the lock.
                if self._rates is None:
                    table = {code: Decimal(rate) for code, rate in self._provider.fetch().items()}
                    # Publish only the finished table: readers skip the lock entirely.
                    self._rates = table
        return self._rates

    def rate(self, source, target):
        table = self._table()
        try:
            return table[target] / table[source]
        except KeyError as exc:
            raise UnknownCurrency(f"no rate for {exc.args[0]}") from None

    def convert(self, money, target):
        return Money(money.amount * self.rate(money.currency, target), target).rounded()
