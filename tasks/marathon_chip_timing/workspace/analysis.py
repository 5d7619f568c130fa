from datetime import timedelta

from codec import loads
from timing import format_pace


def segments(runner, distance_km):
    """(from_km, to_km, duration) for each leg between checkpoints, ending at the finish."""
    if runner.finish is None:
        return []
    marks = [(0.0, timedelta(0))] + sorted(runner.splits.items()) + [(float(distance_km), runner.finish)]
    return [(a_km, b_km, b_t - a_t) for (a_km, a_t), (b_km, b_t) in zip(marks, marks[1:])]


def segment_paces(runner, distance_km):
    return [
        (f"{a:g}-{b:g} km", format_pace(d / (b - a)))
        for a, b, d in segments(runner, distance_km)
        if b > a
    ]


def negative_split(runner, distance_km):
    half = distance_km / 2
    if half not in runner.splits or runner.finish is None:
        return None
    first = runner.splits[half]
    second = runner.finish - first
    return second < first


def archive_summary(text, distance_km):
    runners = loads(text)
    finished = [r for r in runners if r.finish is not None]
    if not finished:
        return {"finishers": 0}
    total = sum((r.finish for r in finished), timedelta(0))
    mean = total / len(finished)
    negatives = [r.bib for r in finished if negative_split(r, distance_km)]
    return {
        "finishers": len(finished),
        "mean_finish_s": round(mean.total_seconds(), 1),
        "fastest_s": round(min(r.finish for r in finished).total_seconds(), 1),
        "negative_splits": sorted(negatives),
    }
