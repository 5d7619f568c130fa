"""Sales ledger: one entry per sale, priced from the catalog at the time of sale."""
import threading
from dataclasses import dataclass
from decimal import Decimal


@dataclass
class Sale:
    sku: str
    quantity: int
    unit_price: Decimal

    @property
    def total(self):
        return self.unit_price * self.quantity


class SalesLedger:
    def __init__(self, catalog, audit=None):
        self._lock = threading.Lock()
        self._catalog = catalog
        self._audit = audit or (lambda event, detail: None)
        self._sales = []
        catalog.on_rename(self._sku_renamed)

    def record_sale(self, sku, quantity):
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        with self._lock:
            self._audit("sale", sku)
            sale = Sale(sku, quantity, self._catalog.price_of(sku))
            self._sales.append(sale)
            return sale

    def _sku_renamed(self, old, new):
        with self._lock:
            for sale in self._sales:
                if sale.sku == old:
                    sale.sku = new
            self._audit("rename", f"{old}->{new}")

    def revenue(self, sku=None):
        with self._lock:
            return sum((s.total for s in self._sales if sku is None or s.sku == sku), Decimal("0"))

    def skus(self):
        with self._lock:
            return sorted({s.sku for s in self._sales})
