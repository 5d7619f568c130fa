"""Product pages: catalogue data (cached for a minute) with the viewer's price applied."""
from catalog_db import CatalogDB
from promotions import apply_percent, discount_percent
from vendor.memocache import TTLCache, cached


class PriceService:
    def __init__(self, db=None, sales=(), timer=None):
        self.db = db if db is not None else CatalogDB()
        self.sales = list(sales)
        options = {"timer": timer} if timer is not None else {}
        self.cache = TTLCache(maxsize=256, ttl=60, **options)
        self.product = cached(self.cache)(self.db.fetch)

    def view(self, sku, tier="guest"):
        """What the product page shows a customer of `tier`."""
        cached_row = self.product(sku)
        product = dict(cached_row, badges=list(cached_row["badges"]))
        percent = discount_percent(product, tier, self.sales)
        if percent:
            product["list_price_cents"] = product["price_cents"]
            product["price_cents"] = apply_percent(product["price_cents"], percent)
            for sale in self.sales:
                if sale.category == product["category"] and sale.badge not in product["badges"]:
                    product["badges"].append(sale.badge)
        return product

    def basket_total(self, skus, tier="guest"):
        return sum(self.view(sku, tier)["price_cents"] for sku in skus)

    def refresh(self, sku):
        for key in [k for k in self.cache if k[:1] == (sku,)]:
            del self.cache[key]
