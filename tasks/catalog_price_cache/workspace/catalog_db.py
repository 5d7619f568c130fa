"""The catalogue database (an in-memory stand-in that counts queries like the real driver's metrics)."""

ROWS = {
    "KET-01": {"sku": "KET-01", "name": "Kettle", "price_cents": 3_999, "category": "kitchen", "badges": []},
    "TOA-02": {"sku": "TOA-02", "name": "Toaster", "price_cents": 5_499, "category": "kitchen", "badges": ["new"]},
    "LMP-03": {"sku": "LMP-03", "name": "Desk lamp", "price_cents": 2_450, "category": "office", "badges": []},
}


class ProductMissing(KeyError):
    pass


class CatalogDB:
    def __init__(self, rows=None):
        self._rows = {sku: dict(row, badges=list(row["badges"])) for sku, row in (rows or ROWS).items()}
        self.queries = 0

    def fetch(self, sku):
        self.queries += 1
        try:
            row = self._rows[sku]
        except KeyError:
            raise ProductMissing(sku) from None
        return dict(row, badges=list(row["badges"]))

    def update_price(self, sku, price_cents):
        self._rows[sku]["price_cents"] = price_cents
