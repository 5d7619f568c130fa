from dataclasses import dataclass, field

from rubric import Rubric, RubricError

CUTOFFS = (("A", 90.0), ("B", 80.0), ("C", 70.0), ("D", 60.0))


@dataclass
class Submission:
    student: str
    answers: dict = field(default_factory=dict)  # qid -> choice letter
    marks: dict = field(default_factory=dict)  # qid -> points for written answers
    late_days: int = 0


def score(rubric: Rubric, sub: Submission):
    earned = 0.0
    for q in rubric.questions:
        if q.kind == "choice":
            if sub.answers.get(q.qid, "").strip().upper() == q.answer.upper():
                earned += q.points
        else:
            mark = sub.marks.get(q.qid, 0.0)
            if mark < 0 or mark > q.points:
                raise RubricError(f"{sub.student}/{q.qid}: mark {mark} outside 0..{q.points}")
            earned += mark
    return earned


def late_penalty(pct, late_days, per_day=5.0, cap=30.0):
    return max(0.0, pct - min(cap, late_days * per_day))


def percentage(rubric, sub):
    raw = 100.0 * score(rubric, sub) / rubric.total
    return round(late_penalty(raw, sub.late_days), 2)


def letter(pct):
    for grade, cutoff in CUTOFFS:
        if pct >= cutoff:
            return grade
    return "F"


def grade_all(rubric, submissions, curve=None):
    pcts = {s.student: percentage(rubric, s) for s in submissions}
    if curve is not None:
        pcts = curve(pcts)
    return {student: (pct, letter(pct)) for student, pct in sorted(pcts.items())}
