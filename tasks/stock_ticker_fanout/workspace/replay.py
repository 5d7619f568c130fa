"""Replaying a recorded session through the hub (used for the end-of-day reconciliation)."""
from quotes import parse_feed


def replay(hub, text):
    quotes = parse_feed(text)
    delivered = [hub.publish(q) for q in quotes]
    return {"quotes": len(quotes), "deliveries": sum(delivered), "errors": list(hub.errors)}


def vwap(text, symbol):
    """Volume-weighted average price of one symbol over the session, in cents."""
    total_value = total_volume = 0
    for q in parse_feed(text):
        if q.symbol == symbol:
            total_value += q.price_cents * q.volume
            total_volume += q.volume
    return round(total_value / total_volume) if total_volume else None


def session_ranges(text):
    """{symbol: (low, high, last, total volume)} over the session, for the closing report."""
    out = {}
    for q in parse_feed(text):
        low, high, _, volume = out.get(q.symbol, (q.price_cents, q.price_cents, q.price_cents, 0))
        out[q.symbol] = (min(low, q.price_cents), max(high, q.price_cents), q.price_cents, volume + q.volume)
    return dict(sorted(out.items()))


def closing_lines(text):
    return [
        f"{symbol:<5} low {low / 100:.2f} high {high / 100:.2f} last {last / 100:.2f} vol {volume}"
        for symbol, (low, high, last, volume) in session_ranges(text).items()
    ]
