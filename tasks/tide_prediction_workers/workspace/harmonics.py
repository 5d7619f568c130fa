import math
from datetime import datetime, timezone

from stations import current_station

EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)


def hours_since_epoch(when):
    if when.tzinfo is None:
        raise ValueError("times must be timezone-aware")
    return (when - EPOCH).total_seconds() / 3600.0


def height_at(when):
    station = current_station()
    t = hours_since_epoch(when)
    h = station.datum_offset_m
    for c in station.constituents:
        h += c.amplitude_m * math.cos(math.radians(c.speed_deg_per_hour * t - c.phase_deg))
    return round(h, 3)


def extremes(samples):
    """Local highs and lows from (time, height) samples in time order."""
    out = []
    for (t0, h0), (t1, h1), (t2, h2) in zip(samples, samples[1:], samples[2:]):
        if h1 > h0 and h1 >= h2:
            out.append(("high", t1, h1))
        elif h1 < h0 and h1 <= h2:
            out.append(("low", t1, h1))
    return out


def tidal_range(samples):
    heights = [h for _, h in samples]
    if not heights:
        return 0.0
    return round(max(heights) - min(heights), 3)
