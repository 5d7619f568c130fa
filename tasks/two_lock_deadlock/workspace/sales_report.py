"""End-of-day sales summary for the shop manager."""
from decimal import Decimal


def top_sellers(ledger, limit=3):
    """SKUs ordered by revenue, highest first; ties broken by SKU."""
    rows = [(ledger.revenue(sku), sku) for sku in ledger.skus()]
    rows.sort(key=lambda r: (-r[0], r[1]))
    return [(sku, revenue) for revenue, sku in rows[:limit]]


def summary_lines(ledger, currency="EUR"):
    total = ledger.revenue()
    lines = [f"Revenue: {total:.2f} {currency}"]
    for rank, (sku, revenue) in enumerate(top_sellers(ledger), start=1):
        share = (revenue / total * 100) if total else Decimal("0")
        lines.append(f"{rank}. {sku}: {revenue:.2f} {currency} ({share:.0f}%)")
    return lines
