"""Supplier orders: the prep list rounded up to the pack sizes each supplier sells."""
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Pack:
    supplier: str
    item: str
    size: float
    unit: str
    price: float

    def __post_init__(self):
        if self.size <= 0 or self.price < 0:
            raise ValueError(f"{self.item}: pack size must be positive and price non-negative")


class Catalogue:
    def __init__(self, packs):
        self._packs = {}
        for p in packs:
            self._packs.setdefault(p.item, []).append(p)

    def best_pack(self, item, qty):
        """The pack that covers `qty` most cheaply, with how many of it."""
        options = self._packs.get(item)
        if not options:
            raise KeyError(f"nobody sells {item}")
        scored = [(math.ceil(qty / p.size) * p.price, math.ceil(qty / p.size), p) for p in options]
        cost, count, pack = min(scored, key=lambda s: (s[0], s[2].size))
        return pack, count, round(cost, 2)


def purchase_orders(items, catalogue):
    """{supplier: [(item, packs, pack size, cost)]} for a shopping list of (name, qty, unit)."""
    orders = {}
    for name, qty, unit in items:
        pack, count, cost = catalogue.best_pack(name, qty)
        if pack.unit != unit:
            raise ValueError(f"{name}: list is in {unit}, packs are in {pack.unit}")
        orders.setdefault(pack.supplier, []).append((name, count, pack.size, cost))
    return {s: sorted(lines) for s, lines in sorted(orders.items())}
