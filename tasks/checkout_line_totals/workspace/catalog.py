"""The product catalogue, loaded from the merchandising feed (one product per line, `|`-separated)."""
from dataclasses import dataclass

from money import MoneyError, to_cents


class FeedError(ValueError):
    def __init__(self, line_no, message):
        super().__init__(f"feed line {line_no}: {message}")
        self.line_no = line_no


@dataclass(frozen=True)
class Product:
    sku: str
    name: str
    price_cents: int
    taxable: bool = True


def parse_feed(text):
    """sku|name|price|taxable -> {sku: Product}. Blank lines and lines starting with ';' are skipped."""
    products = {}
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 4:
            raise FeedError(line_no, f"expected 4 fields, got {len(parts)}")
        sku, name, price, taxable = parts
        if sku in products:
            raise FeedError(line_no, f"duplicate sku {sku}")
        try:
            cents = to_cents(price)
        except MoneyError as exc:
            raise FeedError(line_no, str(exc)) from None
        if cents <= 0:
            raise FeedError(line_no, f"price must be positive: {price}")
        products[sku] = Product(sku, name, cents, taxable.lower() in ("y", "yes", "1", "true"))
    return products
