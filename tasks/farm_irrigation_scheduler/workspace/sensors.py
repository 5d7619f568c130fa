"""Soil moisture probes: volumetric water content readings turned into millimetres stored in the root zone."""
from dataclasses import dataclass
from statistics import median

# Volumetric water content (%) at field capacity, by soil.
FIELD_CAPACITY = {"sand": 12.0, "loam": 28.0, "clay": 38.0}
ROOT_DEPTH_MM = 300


@dataclass(frozen=True)
class Probe:
    zone: str
    depth_mm: int
    vwc_percent: float

    def __post_init__(self):
        if not 0 <= self.vwc_percent <= 60:
            raise ValueError(f"probe in {self.zone}: implausible reading {self.vwc_percent}%")


def parse_probes(lines):
    probes = []
    for line in lines:
        zone, depth, vwc = line.split()
        probes.append(Probe(zone, int(depth), float(vwc)))
    return probes


def stored_mm(zone, probes):
    """Plant-available water above the refill point, from the median of the zone's probes (0 when no probe)."""
    readings = [p.vwc_percent for p in probes if p.zone == zone.name]
    if not readings:
        return 0.0
    refill = FIELD_CAPACITY[zone.soil] * 0.6
    available = max(0.0, median(readings) - refill) / 100 * ROOT_DEPTH_MM
    return round(min(available, zone.holding_mm), 2)
