"""A course's grading policy, as published in the syllabus.

Letter grades: a course percentage at or above a cutoff earns that letter.

    A  93   A- 90   B+ 87   B  83   B- 80   C+ 77   C  73   C- 70   D  60   F  below 60
"""
from dataclasses import dataclass, field

LETTER_CUTOFFS = (
    (93, "A"), (90, "A-"), (87, "B+"), (83, "B"), (80, "B-"),
    (77, "C+"), (73, "C"), (70, "C-"), (60, "D"), (0, "F"),
)
GRADE_POINTS = {"A": 4.0, "A-": 3.7, "B+": 3.3, "B": 3.0, "B-": 2.7, "C+": 2.3, "C": 2.0, "C-": 1.7, "D": 1.0, "F": 0.0}


class PolicyError(ValueError):
    pass


@dataclass(frozen=True)
class GradingPolicy:
    weights: dict = field(default_factory=lambda: {"homework": 25, "midterm": 30, "final": 45})
    drop_lowest_homework: int = 1
    late_penalty_per_day: int = 10
    max_late_days: int = 3
    cutoffs: tuple = LETTER_CUTOFFS

    def validate(self):
        if sum(self.weights.values()) != 100:
            raise PolicyError(f"weights add up to {sum(self.weights.values())}, not 100")
        if any(w < 0 for w in self.weights.values()):
            raise PolicyError("weights may not be negative")
        values = [c for c, _ in self.cutoffs]
        if values != sorted(values, reverse=True) or values[-1] != 0:
            raise PolicyError("cutoffs must descend to 0")
        if self.drop_lowest_homework < 0:
            raise PolicyError("drop_lowest_homework may not be negative")
        return self
