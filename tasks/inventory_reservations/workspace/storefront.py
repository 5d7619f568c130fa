"""What the shop shows and accepts: availability badges and checkout against reservations."""
LOW_STOCK = 3


class OutOfStock(Exception):
    pass


def badge(stock, sku):
    free = stock.available(sku)
    if free <= 0:
        return "sold out"
    if free <= LOW_STOCK:
        return f"only {free} left"
    return "in stock"


def checkout(book, order_id, cart, now):
    """Hold stock for a cart ({sku: quantity}); an unavailable line fails the whole checkout."""
    missing = {sku: q for sku, q in cart.items() if book.stock.available(sku) < q}
    if missing:
        raise OutOfStock(", ".join(f"{sku} x{q}" for sku, q in sorted(missing.items())))
    return book.reserve(order_id, cart, now)


def badges(stock, skus):
    return {sku: badge(stock, sku) for sku in skus}
