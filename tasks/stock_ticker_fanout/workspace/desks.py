"""What the desks do with quotes: alerts, moving averages and live portfolio value."""
from collections import deque


class PriceAlert:
    def __init__(self, symbol, above_cents=None, below_cents=None):
        self.symbol = symbol
        self.above = above_cents
        self.below = below_cents
        self.fired = []

    def __call__(self, quote):
        if self.above is not None and quote.price_cents >= self.above:
            self.fired.append(("above", quote.seq))
            self.above = None
        if self.below is not None and quote.price_cents <= self.below:
            self.fired.append(("below", quote.seq))
            self.below = None


class MovingAverage:
    def __init__(self, window):
        self.window = window
        self.prices = {}

    def __call__(self, quote):
        self.prices.setdefault(quote.symbol, deque(maxlen=self.window)).append(quote.price_cents)

    def value(self, symbol):
        prices = self.prices.get(symbol)
        if not prices:
            return None
        return round(sum(prices) / len(prices))


class Portfolio:
    def __init__(self, holdings):
        self.holdings = dict(holdings)
        self.last = {}

    def __call__(self, quote):
        if quote.symbol in self.holdings:
            self.last[quote.symbol] = quote.price_cents

    def value_cents(self):
        return sum(qty * self.last.get(sym, 0) for sym, qty in self.holdings.items())

    def unpriced(self):
        return sorted(s for s in self.holdings if s not in self.last)


def desk_report(portfolio, averages):
    """Holdings with last price and moving average, for the desk's screen."""
    lines = []
    for symbol in sorted(portfolio.holdings):
        last = portfolio.last.get(symbol)
        avg = averages.value(symbol)
        lines.append(f"{symbol}: {portfolio.holdings[symbol]} @ {'-' if last is None else last} (avg {'-' if avg is None else avg})")
    return lines
