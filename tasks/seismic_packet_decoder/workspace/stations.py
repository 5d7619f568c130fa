"""The station register: where each field station is and how its counts convert to ground velocity."""
import csv
import io
import math
from dataclasses import dataclass

EARTH_RADIUS_KM = 6371.0


class UnknownStation(KeyError):
    pass


@dataclass(frozen=True)
class Station:
    station_id: int
    code: str
    lat: float
    lon: float
    counts_per_um_s: float

    def velocity(self, counts):
        """Ground velocity in micrometres per second for a raw sample."""
        return counts / self.counts_per_um_s


def load_register(text):
    """CSV with a header: id,code,lat,lon,counts_per_um_s."""
    register = {}
    for row in csv.DictReader(io.StringIO(text)):
        station = Station(int(row["id"]), row["code"].strip(), float(row["lat"]), float(row["lon"]), float(row["counts_per_um_s"]))
        if not (-90 <= station.lat <= 90 and -180 <= station.lon <= 180):
            raise ValueError(f"{station.code}: coordinates out of range")
        if station.counts_per_um_s <= 0:
            raise ValueError(f"{station.code}: sensitivity must be positive")
        register[station.station_id] = station
    return register


def lookup(register, station_id):
    try:
        return register[station_id]
    except KeyError:
        raise UnknownStation(station_id) from None


def distance_km(a, b):
    """Great-circle distance between two stations (haversine)."""
    p1, p2 = math.radians(a.lat), math.radians(b.lat)
    dp, dl = p2 - p1, math.radians(b.lon - a.lon)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def nearest(register, station_id, n=2):
    """The `n` stations closest to one station, nearest first, for the map's neighbour panel."""
    origin = lookup(register, station_id)
    others = [s for s in register.values() if s.station_id != station_id]
    return [s.code for s in sorted(others, key=lambda s: (distance_km(origin, s), s.code))[:n]]
