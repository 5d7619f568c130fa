"""Per-sensor running statistics and threshold alerts."""
import math
from dataclasses import dataclass, field


@dataclass
class Stats:
    count: int = 0
    total: float = 0.0
    low: float = math.inf
    high: float = -math.inf
    last_seq: int = 0
    gaps: list = field(default_factory=list)

    def add(self, reading):
        if reading.seq != self.last_seq + 1:
            self.gaps.append((self.last_seq + 1, reading.seq - 1))
        self.last_seq = reading.seq
        self.count += 1
        self.total += reading.value
        self.low = min(self.low, reading.value)
        self.high = max(self.high, reading.value)

    @property
    def mean(self):
        return self.total / self.count if self.count else None


class Aggregator:
    def __init__(self, thresholds=None):
        self.thresholds = dict(thresholds or {})
        self.stats = {}
        self.alerts = []

    def add(self, reading):
        stats = self.stats.setdefault(reading.sensor, Stats())
        stats.add(reading)
        limit = self.thresholds.get(reading.sensor)
        if limit is not None and reading.value > limit:
            self.alerts.append((reading.sensor, reading.seq, reading.value))

    def summary(self):
        return {
            name: {"count": s.count, "mean": round(s.mean, 3), "low": s.low, "high": s.high}
            for name, s in sorted(self.stats.items())
        }
