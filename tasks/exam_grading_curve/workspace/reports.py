import statistics
from collections import Counter

from grading import CUTOFFS, grade_all


def distribution(results):
    counts = Counter(grade for _, grade in results.values())
    return {g: counts.get(g, 0) for g in [c[0] for c in CUTOFFS] + ["F"]}


def summary(results):
    pcts = [p for p, _ in results.values()]
    if not pcts:
        return {"n": 0}
    return {
        "n": len(pcts),
        "mean": round(statistics.fmean(pcts), 2),
        "median": round(statistics.median(pcts), 2),
        "passing": sum(1 for _, g in results.values() if g != "F"),
    }


def gradebook(rubric, submissions, curve=None):
    results = grade_all(rubric, submissions, curve)
    lines = [f"{rubric.exam}: {len(results)} students"]
    for student, (pct, grade) in results.items():
        lines.append(f"  {student:<10} {pct:6.2f}  {grade}")
    dist = distribution(results)
    lines.append("  " + " ".join(f"{g}:{n}" for g, n in dist.items()))
    return "\n".join(lines)


def item_analysis(rubric, submissions):
    out = {}
    for q in rubric.questions:
        if q.kind != "choice":
            continue
        right = sum(1 for s in submissions if s.answers.get(q.qid, "").upper() == q.answer.upper())
        out[q.qid] = round(right / len(submissions), 2) if submissions else 0.0
    return out
