"""Assigning pickers to the zones of a wave.

Pickers are handed out in proportion to the units waiting in each zone, with
at least one picker for every zone that has work. The freezer is capped:
nobody may spend a whole wave inside it, so at most two pickers go there.
"""
FREEZER = "F"
FREEZER_CAP = 2


def assign(units_by_zone: dict[str, int], pickers: list[str]) -> dict[str, list[str]]:
    busy = {z: u for z, u in units_by_zone.items() if u > 0}
    if len(pickers) < len(busy):
        raise ValueError(f"{len(busy)} zones have work but only {len(pickers)} pickers are on shift")
    seats = {z: 1 for z in busy}
    spare = len(pickers) - len(busy)
    while spare:
        # next picker goes where each picker would carry the most units
        candidates = [z for z in busy if not (z == FREEZER and seats[z] >= FREEZER_CAP)]
        if not candidates:
            break
        zone = max(candidates, key=lambda z: (busy[z] / seats[z], z))
        seats[zone] += 1
        spare -= 1
    out, queue = {}, list(pickers)
    for zone in sorted(seats):
        out[zone] = [queue.pop(0) for _ in range(seats[zone])]
    if queue:
        out["float"] = queue
    return out
