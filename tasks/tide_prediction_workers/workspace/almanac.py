from datetime import timedelta

from stations import get
from units import fmt, safe_windows
from workers import PredictionPool, daily_table


class Almanac:
    """Printed tide tables for a set of stations over several days."""

    def __init__(self, station_codes, pool=None):
        self.stations = [get(code) for code in station_codes]
        self.pool = pool or PredictionPool()

    def tables(self, start, days):
        out = {}
        for station in self.stations:
            out[station.code] = [daily_table(self.pool, station.code, start + timedelta(days=d)) for d in range(days)]
        return out

    def highest_high(self, start, days):
        best = {}
        for code, tables in self.tables(start, days).items():
            highs = [(h, day) for day, t in enumerate(tables) for kind, _, h in t["events"] if kind == "high"]
            best[code] = max(highs)[0] if highs else None
        return best

    def render(self, start, days, unit="m"):
        lines = []
        for code, tables in self.tables(start, days).items():
            station = get(code)
            lines.append(f"== {station.name} ({code}), datum {station.datum_offset_m:+.1f} m")
            for d, table in enumerate(tables):
                day = (start + timedelta(days=d)).strftime("%a %d %b")
                events = "  ".join(f"{kind[0].upper()} {when} {fmt(h, unit)}" for kind, when, h in table["events"])
                lines.append(f"{day}  {events}")
        return "\n".join(lines)


def spring_neap_ratio(pool, code, start, days=14):
    ranges = [daily_table(pool, code, start + timedelta(days=d))["range_m"] for d in range(days)]
    low = min(ranges)
    if low == 0:
        return float("inf")
    return round(max(ranges) / low, 2)


def bridge_passages(pool, code, start, bridge_m, air_draft_m):
    from workers import sample_times

    samples = pool.heights(code, sample_times(start, 24, 30))
    return [(a.strftime("%H:%M"), b.strftime("%H:%M")) for a, b in safe_windows(samples, bridge_m, air_draft_m)]
