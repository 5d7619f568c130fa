"""Observing targets from the proposal queue."""
from dataclasses import dataclass


def hms_to_deg(text):
    h, m, s = (float(p) for p in text.split(":"))
    return 15 * (h + m / 60 + s / 3600)


def dms_to_deg(text):
    sign = -1 if text.strip().startswith("-") else 1
    d, m, s = (abs(float(p)) for p in text.split(":"))
    return sign * (d + m / 60 + s / 3600)


@dataclass(frozen=True)
class Target:
    name: str
    ra_deg: float
    dec_deg: float
    priority: int
    exposure_min: int
    min_altitude: float = 30.0

    def __post_init__(self):
        if not -90 <= self.dec_deg <= 90:
            raise ValueError(f"{self.name}: declination out of range")
        if self.exposure_min <= 0:
            raise ValueError(f"{self.name}: exposure must be positive")


def parse_queue(lines):
    out = []
    for line in lines:
        name, ra, dec, priority, exposure = line.split()
        out.append(Target(name, hms_to_deg(ra), dms_to_deg(dec), int(priority), int(exposure)))
    return out
