from dataclasses import dataclass, field
from datetime import date

from plans import plan


@dataclass
class Member:
    member_id: str
    name: str
    plan_code: str
    joined: date
    cancelled: date | None = None
    plan_changes: list = field(default_factory=list)  # (effective date, new plan code)
    classes: dict = field(default_factory=dict)  # "YYYY-MM" -> count

    def plan_on(self, day):
        code = self.plan_code
        for effective, new_code in sorted(self.plan_changes):
            if effective <= day:
                code = new_code
        return plan(code)

    def change_plan(self, effective, new_code):
        plan(new_code)
        self.plan_changes.append((effective, new_code))

    def book_class(self, day):
        key = f"{day.year}-{day.month:02d}"
        self.classes[key] = self.classes.get(key, 0) + 1

    def active_on(self, day):
        return self.joined <= day and (self.cancelled is None or day <= self.cancelled)


def roster(members, day):
    active = [m for m in members if m.active_on(day)]
    by_plan = {}
    for m in active:
        code = m.plan_on(day).code
        by_plan[code] = by_plan.get(code, 0) + 1
    return {"active": len(active), "by_plan": dict(sorted(by_plan.items()))}


def peak_allowed(member, day, hour):
    if not member.active_on(day):
        return False
    plan = member.plan_on(day)
    if plan.peak_access:
        return True
    return not (17 <= hour < 20 or (day.weekday() < 5 and 7 <= hour < 9))
