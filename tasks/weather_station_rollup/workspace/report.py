"""Reports for the regional bulletin: quality-controlled readings and corrections."""
from rollup import daily_readings, daily_summary
from stations import Reading


def plausible(reading, low=-60.0, high=60.0):
    return low <= reading.temp_c <= high


def quality_controlled(station, day):
    """Readings with implausible temperatures removed."""
    readings = daily_readings(station, day)
    readings[:] = [r for r in readings if plausible(r)]
    return readings


def with_manual_entries(station, day, entries):
    """Readings plus hand-entered values for hours the logger missed, in hour order."""
    readings = daily_readings(station, day)
    have = {r.hour for r in readings}
    for hour, temp_c, rain_mm in entries:
        if hour in have:
            raise ValueError(f"{station} {day}: hour {hour} already has a reading")
        readings.append(Reading(station, day, hour, temp_c, rain_mm))
    readings.sort(key=lambda r: r.hour)
    return readings


def bulletin(stations, day):
    lines = []
    for station in stations:
        s = daily_summary(station, day)
        if s is None:
            lines.append(f"{station}: no data")
        else:
            lines.append(f"{station}: {s['min_c']}..{s['max_c']} C, {s['rain_mm']} mm over {s['hours']} h")
    return "\n".join(lines)


def rain_totals(station, days):
    """Rain per day and the wettest hour over a run of days."""
    totals, wettest = {}, None
    for day in days:
        readings = daily_readings(station, day)
        totals[day] = round(sum(r.rain_mm for r in readings), 1)
        for r in readings:
            if wettest is None or r.rain_mm > wettest.rain_mm:
                wettest = r
    return totals, (None if wettest is None else (wettest.day, wettest.hour))
