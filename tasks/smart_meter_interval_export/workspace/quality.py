"""Data-quality pass before billing: drop duplicates, flag rollbacks, estimate missing half hours."""
from dataclasses import dataclass, field
from datetime import timedelta

from meters import Reading

SLOT = timedelta(minutes=30)


@dataclass
class QualityReport:
    duplicates: int = 0
    rollbacks: list = field(default_factory=list)
    estimated: list = field(default_factory=list)


def clean(readings):
    """Readings in time order with duplicates removed and gaps filled by straight-line estimates."""
    report = QualityReport()
    by_time = {}
    for r in sorted(readings, key=lambda r: r.at):
        if r.at in by_time:
            report.duplicates += 1
            continue
        by_time[r.at] = r
    ordered = list(by_time.values())
    out = ordered[:1]
    for prev, cur in zip(ordered, ordered[1:]):
        if cur.register_kwh < prev.register_kwh:
            report.rollbacks.append(cur.at)
            continue
        steps = int((cur.at - prev.at) / SLOT)
        for k in range(1, steps):
            share = k / steps
            kwh = round(prev.register_kwh + share * (cur.register_kwh - prev.register_kwh), 3)
            estimate = Reading(cur.meter_id, prev.at + k * SLOT, kwh)
            report.estimated.append(estimate.at)
            out.append(estimate)
        out.append(cur)
    return out, report
