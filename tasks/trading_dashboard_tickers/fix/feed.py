"""A market-data feed that pushes price updates to subscribers, per symbol."""
from collections import defaultdict


class PriceFeed:
    def __init__(self):
        self._subscribers = defaultdict(list)
        self.last = {}

    def subscribe(self, symbol, callback):
        if not callable(callback):
            raise TypeError(f"subscriber for {symbol} is not callable: {callback!r}")
        self._subscribers[symbol].append(callback)

    def unsubscribe(self, symbol, callback):
        """Remove one subscription; return whether it was found."""
        subscribers = self._subscribers.get(symbol, [])
        for index, existing in enumerate(subscribers):
            if existing == callback:
                del subscribers[index]
                return True
        return False

    def subscriber_count(self, symbol):
        return len(self._subscribers.get(symbol, ()))

    def publish(self, symbol, price):
        self.last[symbol] = price
        for callback in list(self._subscribers.get(symbol, ())):
            callback(symbol, price)
