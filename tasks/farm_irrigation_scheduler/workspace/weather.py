"""Forecast days: reference evapotranspiration (ET0) and rain, both in millimetres."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Day:
    date: str
    et0_mm: float
    rain_mm: float = 0.0

    def __post_init__(self):
        if self.et0_mm < 0 or self.rain_mm < 0:
            raise ValueError(f"{self.date}: negative ET0 or rain")


def effective_rain(rain_mm):
    """Only part of the rain reaches the roots: none under 2 mm, 80% of the rest."""
    return 0.0 if rain_mm < 2 else round(0.8 * (rain_mm - 2), 2)


def parse_forecast(text):
    days = []
    for line in text.strip().splitlines():
        date, et0, rain = (p.strip() for p in line.split(","))
        days.append(Day(date, float(et0), float(rain)))
    return days
