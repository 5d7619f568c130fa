"""Electronic shelf labels: each label shows the current shelf price, kept up to date from the hub."""
from dataclasses import dataclass

from pricing import PriceBook, format_cents, unit_price_line


@dataclass
class Label:
    sku: str
    title: str
    price: str
    unit_line: str = ""
    updates: int = 0


class ShelfLabelBoard:
    def __init__(self, hub, catalog, price_book=None, sizes=None):
        self.catalog = catalog
        self.price_book = price_book or PriceBook()
        self.sizes = dict(sizes or {})
        self.labels = {}
        for sku in catalog.skus():
            self._refresh(sku, catalog.get(sku).price_cents)
        hub.subscribe(f"catalog.{catalog.store_id}.price", lambda event: self._on_price(event))

    def _refresh(self, sku, cents):
        product = self.catalog.get(sku)
        shelf = self.price_book.shelf_price(product, cents)
        label = self.labels.get(sku) or Label(sku, product.name, "")
        label.price = format_cents(shelf)
        label.unit_line = unit_price_line(shelf, product.unit, self.sizes.get(sku))
        label.updates += 1
        self.labels[sku] = label

    def _on_price(self, event):
        self._refresh(event.get("sku"), event.get("price_cents"))

    def render(self, sku):
        label = self.labels[sku]
        return " | ".join(part for part in (label.title, label.price, label.unit_line) if part)
