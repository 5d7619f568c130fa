from dataclasses import dataclass, field


class RubricError(ValueError):
    pass


@dataclass(frozen=True)
class Question:
    qid: str
    points: float
    kind: str = "written"  # written | choice
    answer: str | None = None


@dataclass
class Rubric:
    exam: str
    questions: list = field(default_factory=list)

    def add(self, qid, points, kind="written", answer=None):
        if any(q.qid == qid for q in self.questions):
            raise RubricError(f"duplicate question {qid}")
        if points <= 0:
            raise RubricError(f"{qid}: points must be positive")
        if kind == "choice" and answer is None:
            raise RubricError(f"{qid}: choice questions need an answer key")
        self.questions.append(Question(qid, points, kind, answer))
        return self

    @property
    def total(self):
        return sum(q.points for q in self.questions)

    def question(self, qid):
        for q in self.questions:
            if q.qid == qid:
                return q
        raise RubricError(f"unknown question {qid}")

    def describe(self):
        lines = [f"{self.exam} ({self.total:g} points)"]
        for q in self.questions:
            tag = "MC" if q.kind == "choice" else "WR"
            lines.append(f"  {q.qid:<4} {tag} {q.points:g}")
        return "\n".join(lines)
