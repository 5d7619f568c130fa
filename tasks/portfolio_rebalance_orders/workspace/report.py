"""The rebalance sheet an adviser signs off."""
from drift import drift


def sheet(holdings, targets, orders, cash):
    lines = [f"{'symbol':<6} {'drift':>7}  order"]
    by_symbol = {o.symbol: o for o in orders}
    for symbol, d in drift(holdings, targets, cash).items():
        order = by_symbol.get(symbol)
        what = f"{order.side} {order.units} @ {order.price}" if order else "-"
        lines.append(f"{symbol:<6} {d * 100:>+6.1f}%  {what}")
    return "\n".join(lines)


def order_summary(orders):
    """'2 sells, 1 buy, 3,480.00 traded' for the notification e-mail."""
    sells = sum(1 for o in orders if o.side == "sell")
    buys = len(orders) - sells
    traded = sum((o.notional for o in orders), start=0)
    return f"{sells} sell{'s' * (sells != 1)}, {buys} buy{'s' * (buys != 1)}, {traded:,.2f} traded"
