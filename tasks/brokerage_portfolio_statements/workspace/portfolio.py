"""An account's holdings. Trades never edit a portfolio: they return the next snapshot, so history stays intact."""
import functools
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from market_data import PriceFeed


@dataclass(frozen=True)
class Trade:
    symbol: str
    quantity: int  # positive buys, negative sells
    price: Decimal


class TradeRejected(ValueError):
    pass


class Portfolio:
    def __init__(self, account_id: str, positions: dict[str, int], cash: Decimal):
        self.account_id = account_id
        self.positions = dict(positions)
        self.cash = cash

    # Portfolios stand for their account: sets and dict keys hold one entry per account.
    def __eq__(self, other) -> bool:
        return isinstance(other, Portfolio) and other.account_id == self.account_id

    def __hash__(self) -> int:
        return hash(self.account_id)

    def apply(self, trade: Trade) -> "Portfolio":
        held = self.positions.get(trade.symbol, 0)
        cost = trade.price * trade.quantity
        if held + trade.quantity < 0:
            raise TradeRejected(f"{self.account_id}: selling {-trade.quantity} {trade.symbol}, holding {held}")
        if cost > self.cash:
            raise TradeRejected(f"{self.account_id}: {cost} needed, {self.cash} cash")
        positions = dict(self.positions)
        positions[trade.symbol] = held + trade.quantity
        if positions[trade.symbol] == 0:
            del positions[trade.symbol]
        return Portfolio(self.account_id, positions, self.cash - cost)

    @functools.lru_cache(maxsize=1024)
    def market_value(self, feed: PriceFeed, day: date) -> Decimal:
        # Valuing touches every position's price; statements ask for the same value many times.
        holdings = sum((feed.close(s, day) * q for s, q in self.positions.items()), Decimal(0))
        return self.cash + holdings
