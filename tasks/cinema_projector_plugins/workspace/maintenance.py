"""Booth maintenance: lamp life and the pre-show checklist."""

LAMP_LIFE_HOURS = 2000
WARN_AT_PERCENT = 90


def lamp_life(host):
    """(hours used, percent of rated life, status) for the booth's lamp."""
    hours = host.get("lamp").hours
    percent = round(100 * hours / LAMP_LIFE_HOURS, 1)
    if percent >= 100:
        status = "replace now"
    elif percent >= WARN_AT_PERCENT:
        status = "order a spare"
    else:
        status = "ok"
    return round(hours, 1), percent, status


def checklist(host):
    """What the projectionist ticks off before doors open; every item must be True."""
    order = host.start_order()
    return {
        "all plugins running": all(host.get(n).running for n in order),
        "douser closed": host.get("douser").open is False,
        "audio format chosen": host.get("audio").format is not None,
        "nothing playing": host.get("show").playing is None,
    }
