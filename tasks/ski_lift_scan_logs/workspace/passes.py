"""Lift passes: day passes, multi-day passes and season passes, checked at the turnstile."""
from dataclasses import dataclass, field
from datetime import date, timedelta

KINDS = ("day", "multi", "season")


@dataclass
class LiftPass:
    pass_id: str
    holder: str
    kind: str
    first_day: date
    days: int = 1
    blocked: bool = False
    used_days: set = field(default_factory=set)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.pass_id}: unknown pass kind {self.kind!r}")
        if self.days < 1:
            raise ValueError(f"{self.pass_id}: a pass covers at least one day")

    def last_day(self):
        if self.kind == "season":
            return date(self.first_day.year + (1 if self.first_day.month >= 11 else 0), 4, 30)
        if self.kind == "day":
            return self.first_day
        return self.first_day + timedelta(days=13)

    def refusal(self, day):
        """Why the pass may not ride on `day`, or None."""
        if self.blocked:
            return "blocked"
        if not self.first_day <= day <= self.last_day():
            return "outside validity"
        if self.kind == "multi" and day not in self.used_days and len(self.used_days) >= self.days:
            return "all days used"
        return None

    def mark_used(self, day):
        self.used_days.add(day)


class PassOffice:
    def __init__(self):
        self.passes = {}

    def issue(self, pass_id, holder, kind, first_day, days=1):
        if pass_id in self.passes:
            raise ValueError(f"pass {pass_id} already issued")
        self.passes[pass_id] = LiftPass(pass_id, holder, kind, first_day, days)
        return self.passes[pass_id]

    def block(self, pass_id):
        self.passes[pass_id].blocked = True

    def lookup(self, pass_id):
        return self.passes.get(pass_id)
