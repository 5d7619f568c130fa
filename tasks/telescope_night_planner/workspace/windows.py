"""When each target is observable from a site on a given night, sampled every STEP_MIN minutes."""
from astro import altitude_deg, julian_day, local_sidereal_degrees

STEP_MIN = 10

_windows = {}


def observable_slots(target, site, night):
    """Slot indexes (minutes from the start of the night / STEP_MIN) when the target is above its limit.

    `night` is (year, month, day) of the evening the night starts."""
    key = (target.name, night)
    cached = _windows.get(key)
    if cached is not None:
        return cached
    year, month, day = night
    start = julian_day(year, month, day, site.night_start_ut)
    slots = []
    for i in range(int(site.night_hours * 60 // STEP_MIN)):
        jd = start + i * STEP_MIN / 1440
        lst = local_sidereal_degrees(jd, site.longitude)
        if altitude_deg(target.ra_deg, target.dec_deg, site.latitude, lst) >= target.min_altitude:
            slots.append(i)
    _windows[key] = slots
    return slots


def peak_slot(target, site, night):
    year, month, day = night
    start = julian_day(year, month, day, site.night_start_ut)
    best, best_alt = None, -90.0
    for i in observable_slots(target, site, night):
        lst = local_sidereal_degrees(start + i * STEP_MIN / 1440, site.longitude)
        alt = altitude_deg(target.ra_deg, target.dec_deg, site.latitude, lst)
        if alt > best_alt:
            best, best_alt = i, alt
    return best, round(best_alt, 1)
