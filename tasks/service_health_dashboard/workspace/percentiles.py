"""Order statistics over a latency series (nearest-rank, the definition our SLOs are written against)."""
import math


def percentile(values, p: float) -> float:
    """The smallest sample with at least p percent of the samples at or below it."""
    if not 0 < p <= 100:
        raise ValueError(f"percentile must be in (0, 100], got {p}")
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = math.ceil(p / 100 * len(ordered))
    return float(ordered[rank - 1])


def summary(values) -> dict:
    if not values:
        return {"count": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
    return {"count": len(values), "p50": percentile(values, 50), "p95": percentile(values, 95),
            "p99": percentile(values, 99), "max": float(max(values))}
