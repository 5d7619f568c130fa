"""Tax lots: which purchases a sell order consumes, and the gain it realises (first in, first out)."""
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

LONG_TERM_DAYS = 365


@dataclass(frozen=True)
class Lot:
    symbol: str
    units: int
    cost: Decimal
    acquired: date


@dataclass(frozen=True)
class Realised:
    short_term: Decimal
    long_term: Decimal

    @property
    def total(self):
        return self.short_term + self.long_term


def sell_fifo(lots, order, on):
    """Consume the oldest lots of the order's symbol; returns the gain and the lots left afterwards."""
    remaining = order.units
    short = long = Decimal(0)
    left = []
    for lot in sorted(lots, key=lambda l: (l.acquired, l.cost)):
        if lot.symbol != order.symbol or remaining == 0:
            left.append(lot)
            continue
        used = min(lot.units, remaining)
        gain = (order.price - lot.cost) * used
        if (on - lot.acquired).days > LONG_TERM_DAYS:
            long += gain
        else:
            short += gain
        remaining -= used
        if used < lot.units:
            left.append(replace(lot, units=lot.units - used))
    if remaining:
        raise ValueError(f"selling {order.units} {order.symbol} but the lots hold {order.units - remaining}")
    return Realised(short, long), left
