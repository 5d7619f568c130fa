"""Shelf prices: category markdowns and the unit price line the law requires on a label."""
from dataclasses import dataclass

UNIT_SIZES = {"each": (1, "each"), "kg": (1000, "kg"), "l": (1000, "l")}


@dataclass(frozen=True)
class Markdown:
    category: str
    percent: int

    def apply(self, cents):
        return cents - (cents * self.percent + 50) // 100


class PriceBook:
    def __init__(self, markdowns=()):
        self.markdowns = {m.category: m for m in markdowns}

    def shelf_price(self, product, cents=None):
        cents = product.price_cents if cents is None else cents
        markdown = self.markdowns.get(product.category)
        return markdown.apply(cents) if markdown else cents


def format_cents(cents):
    return f"${cents // 100}.{cents % 100:02d}"


def unit_price_line(cents, unit, size):
    per, label = UNIT_SIZES[unit]
    if unit == "each" or not size:
        return ""
    return f"{format_cents(round(cents * per / size))}/{label}"
