"""Cell throughput: how many parts per hour a cycle allows, given the conveyor's spacing."""
import math


def parts_per_hour(cycle_seconds, conveyor_gap_s=0.0):
    """The arm waits for the next part when the conveyor is slower than the cycle."""
    period = max(cycle_seconds, conveyor_gap_s)
    if period <= 0:
        raise ValueError("cycle time must be positive")
    return math.floor(3600 / period)


def shift_plan(cycle_seconds, parts_needed, shift_hours=8, conveyor_gap_s=0.0):
    rate = parts_per_hour(cycle_seconds, conveyor_gap_s)
    hours = parts_needed / rate
    return {
        "rate_per_hour": rate,
        "hours": round(hours, 2),
        "shifts": math.ceil(hours / shift_hours),
        "bottleneck": "conveyor" if conveyor_gap_s > cycle_seconds else "arm",
    }
