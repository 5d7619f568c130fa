"""Stations of the metro and the fare zone each lies in. Boundary stations count as the cheaper zone."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Station:
    code: str
    name: str
    zone: int

    def __post_init__(self):
        if not 1 <= self.zone <= 6:
            raise ValueError(f"{self.code}: zone must be 1-6")


STATIONS = {
    s.code: s
    for s in (
        Station("CEN", "Central", 1),
        Station("MKT", "Market Street", 1),
        Station("RIV", "Riverside", 2),
        Station("PRK", "Parkway", 3),
        Station("HIL", "Hillcrest", 4),
        Station("AIR", "Airport", 6),
    )
}


def station(code):
    try:
        return STATIONS[code]
    except KeyError:
        raise KeyError(f"unknown station {code}") from None


def stations_in_zone(zone):
    """Station codes in one zone, alphabetically (for the fare-zone map legend)."""
    return sorted(code for code, s in STATIONS.items() if s.zone == zone)


def zone_span(codes):
    """(lowest, highest) zone touched by a set of stations."""
    zones = [station(c).zone for c in codes]
    if not zones:
        raise ValueError("no stations given")
    return min(zones), max(zones)
