"""Course percentages from raw scores: late penalties, dropped homework, weighted components."""
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Submission:
    component: str
    points: float
    out_of: float
    days_late: int = 0


def adjusted_percent(sub, policy):
    """A submission's percentage after the late penalty; past the last late day it scores zero."""
    if sub.out_of <= 0:
        raise ValueError(f"{sub.component}: out_of must be positive")
    if sub.days_late > policy.max_late_days:
        return Fraction(0)
    raw = Fraction(sub.points).limit_denominator(1000) / Fraction(sub.out_of).limit_denominator(1000) * 100
    penalty = policy.late_penalty_per_day * max(sub.days_late, 0)
    return max(raw - penalty, Fraction(0))


def component_percent(subs, component, policy):
    scores = sorted(adjusted_percent(s, policy) for s in subs if s.component == component)
    if component == "homework" and len(scores) > policy.drop_lowest_homework:
        scores = scores[policy.drop_lowest_homework:]
    if not scores:
        return None
    return sum(scores, Fraction(0)) / len(scores)


def course_percent(subs, policy):
    """The weighted course percentage; a component with no submissions yet is left out and the rest reweighted."""
    total = weight = Fraction(0)
    for component, w in policy.weights.items():
        pct = component_percent(subs, component, policy)
        if pct is None:
            continue
        total += pct * w
        weight += w
    if weight == 0:
        return None
    return total / weight
