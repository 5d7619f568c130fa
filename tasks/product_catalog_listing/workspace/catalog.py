"""In-memory product catalog used by the storefront listing pages."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Product:
    sku: str
    name: str
    price_cents: int
    tags: tuple = field(default_factory=tuple)


class Catalog:
    """Holds products and answers filtered, stably ordered queries."""

    def __init__(self, products=()):
        self._by_sku = {}
        for product in products:
            self.add(product)

    def add(self, product):
        if product.sku in self._by_sku:
            raise ValueError(f"duplicate sku {product.sku!r}")
        self._by_sku[product.sku] = product

    def __len__(self):
        return len(self._by_sku)

    def query(self, tag=None, max_price_cents=None):
        """Products matching the filters, ordered by name then sku so pages are stable."""
        matches = [
            p
            for p in self._by_sku.values()
            if (tag is None or tag in p.tags)
            and (max_price_cents is None or p.price_cents <= max_price_cents)
        ]
        return sorted(matches, key=lambda p: (p.name.lower(), p.sku))
