"""Parking tariffs: an hourly rate, a free grace period, a daily cap and night flat rates, in cents."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Tariff:
    name: str
    hourly: int
    grace_minutes: int = 15
    daily_cap: int = None
    night_flat: int = None
    night_start_hour: int = 20
    night_end_hour: int = 7

    def __post_init__(self):
        if self.hourly <= 0:
            raise ValueError(f"tariff {self.name}: hourly rate must be positive")
        if self.daily_cap is not None and self.daily_cap < self.hourly:
            raise ValueError(f"tariff {self.name}: daily cap below one hour")
        if not (0 <= self.night_start_hour < 24 and 0 <= self.night_end_hour < 24):
            raise ValueError(f"tariff {self.name}: night hours out of range")

    def is_night(self, hour):
        if self.night_start_hour > self.night_end_hour:
            return hour >= self.night_start_hour or hour < self.night_end_hour
        return self.night_start_hour <= hour < self.night_end_hour


STANDARD = Tariff("standard", hourly=250, grace_minutes=15, daily_cap=1800, night_flat=600)
SHORT_STAY = Tariff("short-stay", hourly=400, grace_minutes=10)
STAFF = Tariff("staff", hourly=100, grace_minutes=0, daily_cap=500)

BY_NAME = {t.name: t for t in (STANDARD, SHORT_STAY, STAFF)}


def tariff(name):
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"no tariff named {name!r}") from None
