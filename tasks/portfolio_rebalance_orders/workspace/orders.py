"""Turning drift into orders: sells first, then buys paid for by the sells and the cash balance."""
from dataclasses import dataclass
from decimal import Decimal

from fees import commission
from holdings import Holding, total_value


@dataclass(frozen=True)
class Order:
    symbol: str
    side: str
    units: int
    price: Decimal

    @property
    def notional(self):
        return self.price * self.units


def rebalance_orders(holdings, targets, cash, prices=None):
    """Orders for whole units that move each symbol toward its target; buys never cost more than the money available.

    `prices` gives prices of model symbols the account does not hold yet.
    """
    prices = dict(prices or {})
    book = dict(holdings)
    for symbol in targets:
        if symbol not in book:
            book[symbol] = Holding(symbol, 0, prices[symbol])
    total = total_value(holdings, cash)
    sells, buys = [], []
    for symbol, holding in sorted(book.items()):
        delta = total * targets.get(symbol, Decimal(0)) - holding.value
        units = int(delta / holding.price)
        if units < 0:
            sells.append(Order(symbol, "sell", -units, holding.price))
        elif units > 0:
            buys.append(Order(symbol, "buy", units, holding.price))
    available = Decimal(cash) + sum(o.notional - commission(o.notional) for o in sells)
    funded = []
    for order in sorted(buys, key=lambda o: -o.notional):
        cost = order.notional + commission(order.notional)
        if cost <= available:
            funded.append(order)
            available -= cost
    return sells + funded, available


def cash_after(orders, cash):
    flow = Decimal(cash)
    for order in orders:
        sign = 1 if order.side == "sell" else -1
        flow += sign * order.notional - commission(order.notional)
    return flow
