"""Product records and the (slow, in production) store they live in."""
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Product:
    product_id: int
    slug: str
    name: str
    category: str
    price: Decimal


class ProductRepository:
    """An in-memory product table that counts its reads, standing in for the database."""

    def __init__(self, products=()):
        self._rows = {p.product_id: p for p in products}
        self.reads = 0

    def get(self, product_id):
        self.reads += 1
        try:
            return self._rows[product_id]
        except KeyError:
            raise KeyError(f"no product with id {product_id}") from None

    def find_by_slug(self, slug):
        self.reads += 1
        for product in self._rows.values():
            if product.slug == slug:
                return product
        raise KeyError(f"no product with slug {slug!r}")

    def in_category(self, category):
        self.reads += 1
        return sorted(
            (p for p in self._rows.values() if p.category == category),
            key=lambda p: p.name,
        )

    def save(self, product):
        self._rows[product.product_id] = product
