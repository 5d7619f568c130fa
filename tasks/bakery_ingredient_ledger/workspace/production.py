"""Tomorrow's bake: whole batches covering the accepted orders, and the flour order for the mill."""
import math
from collections import Counter

from menu import combined_needs, product

FLOUR_SACK_G = 25_000


def batches(orders):
    units = Counter()
    for order in orders:
        if order.status == "accepted":
            for code, qty in order.lines:
                units[code] += qty
    return {code: math.ceil(n / product(code).batch_size) for code, n in sorted(units.items())}


def bake_sheet(orders):
    """One line per product, in product-code order."""
    plan = batches(orders)
    if not plan:
        return ["nothing to bake"]
    lines = []
    for code, n in plan.items():
        p = product(code)
        lines.append(f"{p.name}: {n} batch{'es' if n != 1 else ''} ({n * p.batch_size} units)")
    return lines


def mill_order(ledger, orders, par_levels):
    """Sacks of each flour needed to bring stock back to par after baking tomorrow's batches."""
    plan = batches(orders)
    needs = combined_needs([(code, n * product(code).batch_size) for code, n in plan.items()])
    sacks = {}
    for flour in ("flour", "rye"):
        short = par_levels.get(flour, 0) + needs.get(flour, 0) - ledger.available(flour)
        if short > 0:
            sacks[flour] = math.ceil(short / FLOUR_SACK_G)
    return sacks
