"""Units available in a flash sale."""
import threading


class SoldOut(Exception):
    pass


class SaleStock:
    def __init__(self, units):
        self._lock = threading.Lock()
        self._available = dict(units)

    def take(self, item):
        with self._lock:
            if self._available.get(item, 0) <= 0:
                raise SoldOut(item)
            self._available[item] -= 1

    def put_back(self, item):
        with self._lock:
            self._available[item] = self._available.get(item, 0) + 1

    def available(self, item):
        with self._lock:
            return self._available.get(item, 0)
