from dataclasses import dataclass

from grading import letter, percentage
from rubric import RubricError


class RegradeError(Exception):
    pass


@dataclass
class RegradeRequest:
    student: str
    qid: str
    reason: str
    status: str = "open"
    old_mark: float | None = None
    new_mark: float | None = None


class RegradeDesk:
    def __init__(self, rubric, submissions, window_open=True):
        self.rubric = rubric
        self.subs = {s.student: s for s in submissions}
        self.window_open = window_open
        self.requests = []

    def request(self, student, qid, reason):
        if not self.window_open:
            raise RegradeError("the regrade window is closed")
        question = self.rubric.question(qid)
        if question.kind == "choice":
            raise RegradeError(f"{qid} is machine-marked")
        if any(r.student == student and r.qid == qid for r in self.requests):
            raise RegradeError(f"{student} already asked about {qid}")
        req = RegradeRequest(student, qid, reason)
        self.requests.append(req)
        return req

    def resolve(self, req, second_mark, threshold=3.0):
        if req.status != "open":
            raise RegradeError("already resolved")
        q = self.rubric.question(req.qid)
        if not 0 <= second_mark <= q.points:
            raise RubricError(f"mark {second_mark} outside 0..{q.points}")
        sub = self.subs[req.student]
        first = sub.marks.get(req.qid, 0.0)
        req.old_mark = first
        if abs(second_mark - first) > threshold:
            req.new_mark = round((first + second_mark) / 2, 1)
        else:
            req.new_mark = max(first, second_mark)
        sub.marks[req.qid] = req.new_mark
        req.status = "changed" if req.new_mark != first else "upheld"
        pct = percentage(self.rubric, sub)
        return pct, letter(pct)

    def open_requests(self):
        return [(r.student, r.qid) for r in self.requests if r.status == "open"]
