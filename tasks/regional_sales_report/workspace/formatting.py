"""Plain-text rendering of the regional report for the morning email."""

from decimal import ROUND_HALF_UP, Decimal

from report import grand_total, region_lines


def money(amount):
    cents = amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{cents:,.2f}"


def render(sales):
    lines = region_lines(sales)
    width = max([len(line.region) for line in lines] + [len("TOTAL")])
    out = [f"{line.region:<{width}}  {line.orders:>4}  {money(line.total):>12}" for line in lines]
    out.append(f"{'TOTAL':<{width}}  {len(sales):>4}  {money(grand_total(sales)):>12}")
    return "\n".join(out)
