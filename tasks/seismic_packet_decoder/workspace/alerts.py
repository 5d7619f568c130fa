"""Alerting: a shaking alert needs a strong reading at several stations close together within a short window."""
from dataclasses import dataclass

from stations import distance_km, lookup

SAMPLE_MS = 10


@dataclass(frozen=True)
class Trigger:
    station_id: int
    at_ms: int
    velocity_um_s: float


def triggers(frames, register, threshold_um_s):
    """The first sample over the threshold in each frame, with its time."""
    found = []
    for frame in frames:
        station = lookup(register, frame.station_id)
        for index, counts in enumerate(frame.samples):
            velocity = station.velocity(abs(counts))
            if velocity >= threshold_um_s:
                found.append(Trigger(frame.station_id, frame.start_ms + index * SAMPLE_MS, velocity))
                break
    return sorted(found, key=lambda t: (t.at_ms, t.station_id))


def confirmed(found, register, min_stations=2, window_ms=5000, radius_km=50.0):
    """Triggers confirmed by at least `min_stations` distinct stations within the window and radius of the first."""
    for i, first in enumerate(found):
        origin = lookup(register, first.station_id)
        group = {first.station_id}
        for other in found[i + 1:]:
            if other.at_ms - first.at_ms > window_ms:
                break
            if distance_km(origin, lookup(register, other.station_id)) <= radius_km:
                group.add(other.station_id)
        if len(group) >= min_stations:
            return sorted(group)
    return []


def headline(found, register):
    """'COR 240.0 um/s at 11.520 s' for the strongest trigger, the line the pager shows."""
    if not found:
        return "no triggers"
    top = max(found, key=lambda t: (t.velocity_um_s, -t.at_ms))
    return f"{lookup(register, top.station_id).code} {top.velocity_um_s:.1f} um/s at {top.at_ms / 1000:.3f} s"
