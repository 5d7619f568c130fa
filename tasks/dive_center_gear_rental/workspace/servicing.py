"""The workshop list: gear due for service or past its dive count."""
DIVES_BETWEEN_SERVICES = {"regulator": 100, "bcd": 150, "computer": 300, "tank": 200}


def due_for_service(locker, day, warn_dives=5):
    out = []
    for tag, item in sorted(locker.items.items()):
        limit = DIVES_BETWEEN_SERVICES[item.kind]
        if not item.serviceable(day):
            out.append((tag, "date"))
        elif item.dives >= limit - warn_dives:
            out.append((tag, "dives"))
    return out


def utilisation(locker):
    """Dives per item kind, from the locker history."""
    counts = {}
    for _, _, tags in locker.history:
        for tag in tags:
            kind = locker.items[tag].kind
            counts[kind] = counts.get(kind, 0) + 1
    return dict(sorted(counts.items()))
