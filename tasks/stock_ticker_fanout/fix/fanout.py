"""The ticker hub: subscribers register per symbol (or '*') and get every matching quote.
Trading desks subscribe and unsubscribe from their own threads while the feed thread publishes."""
import itertools
import threading


class TickerHub:
    def __init__(self):
        self._subs = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.delivered = 0
        self.errors = []

    def subscribe(self, symbol, callback):
        with self._lock:
            sub_id = next(self._ids)
            self._subs[sub_id] = (symbol.upper(), callback)
            return sub_id

    def unsubscribe(self, sub_id):
        with self._lock:
            self._subs.pop(sub_id, None)

    def publish(self, quote):
        count = 0
        with self._lock:
            current = list(self._subs.items())
        for sub_id, (symbol, callback) in current:
            if symbol not in ("*", quote.symbol):
                continue
            try:
                callback(quote)
                count += 1
            except Exception as exc:
                self.errors.append((sub_id, repr(exc)))
        self.delivered += count
        return count

    def subscribers(self):
        with self._lock:
            return len(self._subs)
