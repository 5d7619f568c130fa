"""Product catalog: SKUs, names and unit prices."""
import threading
from decimal import Decimal


class UnknownSku(KeyError):
    pass


class Catalog:
    def __init__(self):
        self._lock = threading.Lock()
        self._products = {}
        self._listeners = []

    def add(self, sku, name, price):
        with self._lock:
            self._products[sku] = {"name": name, "price": Decimal(str(price))}

    def price_of(self, sku):
        with self._lock:
            try:
                return self._products[sku]["price"]
            except KeyError:
                raise UnknownSku(sku) from None

    def on_rename(self, listener):
        """Register listener(old_sku, new_sku), called whenever a SKU is renamed."""
        with self._lock:
            self._listeners.append(listener)

    def rename_sku(self, old, new):
        with self._lock:
            if old not in self._products:
                raise UnknownSku(old)
            if new in self._products:
                raise ValueError(f"SKU {new!r} already exists")
            self._products[new] = self._products.pop(old)
            listeners = list(self._listeners)
        # Listeners take their own locks; calling them while holding ours would
        # order our lock before theirs, the opposite of SalesLedger.record_sale.
        for listener in listeners:
            listener(old, new)
