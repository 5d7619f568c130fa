"""Positions of one client account, as exported by the custodian (symbol,units,price per line)."""
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation


class PositionError(ValueError):
    pass


@dataclass(frozen=True)
class Holding:
    symbol: str
    units: int
    price: Decimal

    @property
    def value(self):
        return self.price * self.units


def parse_positions(text):
    holdings = {}
    for number, raw in enumerate(text.strip().splitlines(), start=1):
        try:
            symbol, units, price = (part.strip() for part in raw.split(","))
            holding = Holding(symbol.upper(), int(units), Decimal(price))
        except (ValueError, InvalidOperation):
            raise PositionError(f"line {number}: cannot read {raw!r}") from None
        if holding.units < 0 or holding.price <= 0:
            raise PositionError(f"line {number}: units must be >= 0 and price > 0")
        if holding.symbol in holdings:
            raise PositionError(f"line {number}: {holding.symbol} listed twice")
        holdings[holding.symbol] = holding
    return holdings


def total_value(holdings, cash=Decimal(0)):
    return sum((h.value for h in holdings.values()), Decimal(cash))
