"""Turning catalog products into search documents."""
import re
import unicodedata

_WORD = re.compile(r"[a-z0-9]+")


def fold(text):
    """Lower-case and strip accents, so 'Crème' and 'creme' match."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def keywords(*texts):
    seen = []
    for text in texts:
        for word in _WORD.findall(fold(text or "")):
            if len(word) > 1 and word not in seen:
                seen.append(word)
    return seen


def product_document(product):
    """The fields the search index stores for one product."""
    missing = [k for k in ("sku", "name", "price_cents") if k not in product]
    if missing:
        raise ValueError(f"product is missing {', '.join(missing)}")
    if product["price_cents"] < 0:
        raise ValueError(f"{product['sku']}: negative price")
    return product["sku"], {
        "title": product["name"],
        "keywords": keywords(product["name"], product.get("description"), *product.get("tags", ())),
        "price": round(product["price_cents"] / 100, 2),
        "in_stock": bool(product.get("stock", 0)),
    }
