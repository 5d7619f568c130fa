"""GPS fixes from the vans' trackers and the trips they make up."""
import math
from dataclasses import dataclass

SCALE = 100_000


@dataclass(frozen=True)
class Fix:
    t: int
    lat: float
    lon: float

    def __post_init__(self):
        if not -90 <= self.lat <= 90 or not -180 <= self.lon <= 180:
            raise ValueError(f"fix at t={self.t} has impossible coordinates")

    def quantised(self):
        return round(self.lat * SCALE), round(self.lon * SCALE)


def haversine_m(a, b):
    r = 6_371_000
    p1, p2 = math.radians(a.lat), math.radians(b.lat)
    dp, dl = p2 - p1, math.radians(b.lon - a.lon)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(h))


def trip_distance_m(fixes):
    return round(sum(haversine_m(a, b) for a, b in zip(fixes, fixes[1:])))


def max_speed_kmh(fixes):
    best = 0.0
    for a, b in zip(fixes, fixes[1:]):
        if b.t > a.t:
            best = max(best, haversine_m(a, b) / (b.t - a.t) * 3.6)
    return round(best, 1)
