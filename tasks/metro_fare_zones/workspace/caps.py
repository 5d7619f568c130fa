"""Daily capping: a card never pays more in a day than the cap for the widest zone range it used."""
from collections import defaultdict

from fares import zones_travelled

DAILY_CAP = {1: 760, 2: 900, 3: 1060, 4: 1290, 5: 1530, 6: 1640}


def charges(day_journeys):
    """{card: (pence charged, pence saved by the cap)}."""
    spent = defaultdict(int)
    widest = defaultdict(int)
    for j in day_journeys:
        spent[j.card] += j.pence
        zones = 6 if j.incomplete else max(1, zones_travelled(j.origin, j.destination))
        widest[j.card] = max(widest[j.card], zones)
    out = {}
    for card in sorted(spent):
        cap = DAILY_CAP[widest[card]]
        charged = min(spent[card], cap)
        out[card] = (charged, spent[card] - charged)
    return out


def statement(card, day_journeys):
    """The day's journeys for one card as printed on the web statement, with the capped total."""
    lines = []
    for j in day_journeys:
        if j.card != card:
            continue
        dest = "no tap out" if j.incomplete else j.destination
        lines.append(f"{j.start // 60:02d}:{j.start % 60:02d} {j.origin}->{dest} {j.pence / 100:.2f}")
    charged, saved = charges([j for j in day_journeys if j.card == card]).get(card, (0, 0))
    lines.append(f"total {charged / 100:.2f} (capped, saved {saved / 100:.2f})" if saved else f"total {charged / 100:.2f}")
    return lines


def cap_reached_at(card, day_journeys):
    """Start time (minutes) of the journey that took the card to its cap, or None."""
    spent = 0
    cap = charges([j for j in day_journeys if j.card == card]).get(card, (0, 0))
    for j in day_journeys:
        if j.card == card:
            spent += j.pence
            if cap[1] and spent >= cap[0]:
                return j.start
    return None
