"""Consumption per half hour from successive register readings, priced in the meter's local time."""
from collections import defaultdict

from tariffs import band_for


class ReadingGap(ValueError):
    pass


def intervals(readings, max_gap_minutes=30):
    """(start, end, kWh) for each pair of consecutive readings, in time order."""
    ordered = sorted(readings, key=lambda r: r.at)
    out = []
    for a, b in zip(ordered, ordered[1:]):
        gap = (b.at - a.at).total_seconds() / 60
        if gap > max_gap_minutes:
            raise ReadingGap(f"{a.meter_id}: {gap:.0f} minutes between readings at {a.at.isoformat()}")
        used = round(b.register_kwh - a.register_kwh, 3)
        if used < 0:
            raise ValueError(f"{a.meter_id}: register went backwards at {b.at.isoformat()}")
        out.append((a.at, b.at, used))
    return out


def bill(meter, readings):
    """kWh and pence per band; each interval is priced by the band its start falls in locally."""
    kwh = defaultdict(float)
    pence = defaultdict(float)
    for start, _, used in intervals(readings):
        band = band_for(meter.tariff, start.astimezone(meter.tz))
        kwh[band.name] = round(kwh[band.name] + used, 3)
        pence[band.name] = round(pence[band.name] + used * band.pence_per_kwh, 2)
    return {"kwh": dict(sorted(kwh.items())), "pence": dict(sorted(pence.items())), "total_pence": round(sum(pence.values()), 2)}


def daily_profile(meter, readings):
    """kWh by local hour of day."""
    profile = defaultdict(float)
    for start, _, used in intervals(readings):
        hour = start.astimezone(meter.tz).hour
        profile[hour] = round(profile[hour] + used, 3)
    return dict(sorted(profile.items()))
