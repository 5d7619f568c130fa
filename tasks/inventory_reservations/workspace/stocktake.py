"""Stocktakes: counted shelf quantities replace the book values; differences are reported."""


def variances(stock, counted):
    """{sku: (book on hand, counted, difference)} for every SKU whose count differs from the books."""
    out = {}
    for sku, (on_hand, _) in stock.levels().items():
        count = counted.get(sku, on_hand)
        if count != on_hand:
            out[sku] = (on_hand, count, count - on_hand)
    return out


def apply_count(stock, counted):
    """Set on-hand quantities from a count. A count below what is reserved is refused for that SKU."""
    refused = {}
    for sku, count in sorted(counted.items()):
        on_hand, reserved = stock.levels().get(sku, (0, 0))
        if count < reserved:
            refused[sku] = f"counted {count} but {reserved} reserved"
            continue
        if count > on_hand:
            stock.receive(sku, count - on_hand)
        elif count < on_hand:
            with stock._lock:
                stock.on_hand[sku] = count
    return refused
