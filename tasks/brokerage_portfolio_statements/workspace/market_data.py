"""Closing prices by symbol and trading day."""
from datetime import date
from decimal import Decimal


class MissingPrice(LookupError):
    pass


class PriceFeed:
    def __init__(self, closes: dict[tuple[str, date], Decimal]):
        self._closes = dict(closes)

    def close(self, symbol: str, day: date) -> Decimal:
        try:
            return self._closes[(symbol, day)]
        except KeyError:
            raise MissingPrice(f"no close for {symbol} on {day.isoformat()}") from None
