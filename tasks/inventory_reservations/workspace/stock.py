"""Stock levels per SKU: what is on the shelf and how much of it is promised to open orders."""
import threading


class StockError(ValueError):
    pass


class Stock:
    def __init__(self, levels=None):
        self._lock = threading.Lock()
        self.on_hand = dict(levels or {})
        self.reserved = {sku: 0 for sku in self.on_hand}

    def receive(self, sku, quantity):
        if quantity <= 0:
            raise StockError("received quantity must be positive")
        with self._lock:
            self.on_hand[sku] = self.on_hand.get(sku, 0) + quantity
            self.reserved.setdefault(sku, 0)

    def available(self, sku):
        with self._lock:
            return self.on_hand.get(sku, 0) - self.reserved.get(sku, 0)

    def hold(self, sku, quantity):
        with self._lock:
            free = self.on_hand.get(sku, 0) - self.reserved.get(sku, 0)
            if quantity > free:
                raise StockError(f"only {free} of {sku} available, asked for {quantity}")
            self.reserved[sku] += quantity

    def release(self, sku, quantity):
        with self._lock:
            if quantity > self.reserved.get(sku, 0):
                raise StockError(f"releasing {quantity} of {sku} but only {self.reserved.get(sku, 0)} reserved")
            self.reserved[sku] -= quantity

    def ship(self, sku, quantity):
        """Take reserved units off the shelf when the parcel leaves."""
        with self._lock:
            if quantity > self.on_hand.get(sku, 0):
                raise StockError(f"shipping {quantity} of {sku} with {self.on_hand.get(sku, 0)} on hand")
            self.on_hand[sku] -= quantity

    def levels(self):
        with self._lock:
            return {sku: (self.on_hand[sku], self.reserved[sku]) for sku in sorted(self.on_hand)}
