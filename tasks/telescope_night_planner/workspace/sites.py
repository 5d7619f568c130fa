"""Observatory sites."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Site:
    code: str
    latitude: float
    longitude: float
    night_start_ut: float
    night_hours: float

    def __post_init__(self):
        if not -90 <= self.latitude <= 90 or not -180 <= self.longitude <= 180:
            raise ValueError(f"site {self.code}: coordinates out of range")


    def night_end_ut(self):
        """When astronomical night ends, in hours UT (may pass midnight)."""
        return (self.night_start_ut + self.night_hours) % 24


SITES = {}


def register(site):
    SITES[site.code] = site
    return site


LA_PALMA = register(Site("ORM", 28.76, -17.88, night_start_ut=21.0, night_hours=8.0))
PARANAL = register(Site("PAR", -24.63, -70.40, night_start_ut=0.0, night_hours=9.0))
