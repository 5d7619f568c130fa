"""Ticker widgets: a small chart of recent prices for one symbol."""


class TickerWidget:
    def __init__(self, feed, symbol, capacity=5):
        self._feed = feed
        self.symbol = symbol
        self._capacity = capacity
        self._points = []
        feed.subscribe(symbol, self.on_price)

    @property
    def points(self):
        return list(self._points)

    def on_price(self, symbol, price):
        self._points.append((symbol, price))
        del self._points[:-self._capacity]

    def retarget(self, symbol):
        """Show a different symbol in the same widget."""
        self._feed.unsubscribe(self.symbol, self.on_price)
        self.symbol = symbol
        self._points.clear()
        self._feed.subscribe(symbol, self.on_price)

    def close(self):
        self._feed.unsubscribe(self.symbol, self.on_price)
        self._points = None
