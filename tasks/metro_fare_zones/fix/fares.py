"""Fares: a price per number of zones travelled in, peak or off-peak, in pence."""
from network import station

PEAK = {1: 280, 2: 340, 3: 390, 4: 460, 5: 520, 6: 590}
OFF_PEAK = {1: 240, 2: 270, 3: 300, 4: 340, 5: 380, 6: 420}
PEAK_WINDOWS = [(6 * 60 + 30, 9 * 60 + 30), (16 * 60, 19 * 60)]


def zones_travelled(origin, destination):
    """How many zones a trip passes through, counting the zones it starts and ends in."""
    return abs(station(origin).zone - station(destination).zone) + 1


def is_peak(minute_of_day, weekday=True):
    return weekday and any(start <= minute_of_day < end for start, end in PEAK_WINDOWS)


def fare(origin, destination, minute_of_day, weekday=True):
    zones = max(1, zones_travelled(origin, destination))
    table = PEAK if is_peak(minute_of_day, weekday) else OFF_PEAK
    return table[zones]
