"""Time-of-use tariff: price bands by the meter's local clock."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Band:
    name: str
    start_hour: int
    end_hour: int
    pence_per_kwh: float

    def covers(self, hour):
        if self.start_hour <= self.end_hour:
            return self.start_hour <= hour < self.end_hour
        return hour >= self.start_hour or hour < self.end_hour


TOU = [
    Band("night", 23, 7, 9.5),
    Band("day", 7, 16, 24.0),
    Band("peak", 16, 19, 38.0),
    Band("evening", 19, 23, 24.0),
]
FLAT = [Band("flat", 0, 0, 26.5)]

TARIFFS = {"tou": TOU, "flat": FLAT}


def band_for(tariff, local_time):
    for band in TARIFFS[tariff]:
        if tariff == "flat" or band.covers(local_time.hour):
            return band
    raise ValueError(f"no band covers {local_time:%H:%M}")


def describe(tariff):
    """'night 23-7 9.5p, day 7-16 24.0p, ...' for the statement footer."""
    if tariff == "flat":
        return f"flat {FLAT[0].pence_per_kwh}p"
    return ", ".join(f"{b.name} {b.start_hour}-{b.end_hour} {b.pence_per_kwh}p" for b in TARIFFS[tariff])
