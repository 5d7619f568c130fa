"""Daily roll-ups computed from the parsed readings."""
from statistics import mean

from vendor.lrukit import memoize

STORE = None


def use_store(store):
    global STORE
    STORE = store
    _load_day.cache_clear()


@memoize(maxsize=64)
def _load_day(station, day):
    return STORE.parse(station, day)


def daily_readings(station, day):
    return _load_day(station, day)


def daily_summary(station, day):
    readings = daily_readings(station, day)
    if not readings:
        return None
    temps = [r.temp_c for r in readings]
    return {
        "station": station,
        "day": day,
        "hours": len(readings),
        "min_c": min(temps),
        "max_c": max(temps),
        "mean_c": round(mean(temps), 2),
        "rain_mm": round(sum(r.rain_mm for r in readings), 1),
    }
