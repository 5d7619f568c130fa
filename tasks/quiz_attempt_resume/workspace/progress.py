"""Time spent per question and the questions a student marked for review."""
from dataclasses import dataclass, field

from vendor.schemalite import Schema, fields, post_load


@dataclass
class Progress:
    time_spent: dict = field(default_factory=dict)
    marked: list = field(default_factory=list)
    last_qid: int = None

    def record(self, qid, seconds):
        self.time_spent[qid] = self.time_spent.get(qid, 0.0) + seconds
        self.last_qid = qid

    def mark(self, qid):
        if qid not in self.marked:
            self.marked.append(qid)

    def slowest(self, n=3):
        return [qid for qid, _ in sorted(self.time_spent.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]

    @property
    def total_seconds(self):
        return sum(self.time_spent.values())


class ProgressSchema(Schema):
    time_spent = fields.Dict(values=fields.Float(), default=dict)
    marked = fields.List(fields.Int(), default=list)
    last_qid = fields.Int(allow_none=True, default=None)

    @post_load
    def make(self, data):
        return Progress(**data)
