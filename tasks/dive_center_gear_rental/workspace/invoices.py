"""Rental charges from the locker history: a day rate per item kind, capped per diver per day."""
from collections import defaultdict

DAY_RATE = {"regulator": 1200, "bcd": 1000, "computer": 800, "tank": 600}
DAILY_CAP = 3000


def rental_charges(locker):
    """{(day, diver): pence}; an item used on several dives the same day is charged once."""
    used = defaultdict(set)
    for day, diver, tags in locker.history:
        used[(day, diver)].update(tags)
    out = {}
    for key, tags in sorted(used.items()):
        total = sum(DAY_RATE[locker.items[t].kind] for t in tags)
        out[key] = min(total, DAILY_CAP)
    return out


def invoice_lines(locker, diver):
    lines = []
    for (day, who), pence in rental_charges(locker).items():
        if who == diver:
            lines.append(f"{day.isoformat()} gear hire {pence / 100:.2f}")
    return lines
