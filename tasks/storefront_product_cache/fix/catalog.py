"""What the storefront pages call: product pages by id or slug, category listings, and admin edits."""
from dataclasses import replace
from decimal import Decimal

from cache import Cache, category_key, product_key, slug_key


class CatalogService:
    def __init__(self, repository, cache=None):
        self._repo = repository
        self._cache = cache if cache is not None else Cache()

    def product(self, product_id):
        return self._cache.get_or_load(product_key(product_id), lambda: self._repo.get(product_id))

    def product_by_slug(self, slug):
        return self._cache.get_or_load(slug_key(slug), lambda: self._repo.find_by_slug(slug))

    def category_listing(self, category):
        """(name, price) pairs for a category page, sorted by name."""
        return self._cache.get_or_load(
            category_key(category),
            lambda: [(p.name, p.price) for p in self._repo.in_category(category)],
        )

    def update_product(self, product_id, **changes):
        """Apply an admin edit and drop every cached view of the product."""
        if "price" in changes:
            changes["price"] = Decimal(str(changes["price"]))
            if changes["price"] < 0:
                raise ValueError(f"price must not be negative, got {changes['price']}")
        current = self._repo.get(product_id)
        updated = replace(current, **changes)
        self._repo.save(updated)
        self._cache.delete(
            product_key(product_id),
            slug_key(current.slug),
            slug_key(updated.slug),
            category_key(current.category),
            category_key(updated.category),
        )
        return updated
