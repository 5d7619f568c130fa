"""Greedy night plan: highest priority first, each target placed in the earliest free run of slots that
fits its exposure while it stays above its altitude limit."""
from dataclasses import dataclass, field

from windows import STEP_MIN, observable_slots


@dataclass
class Plan:
    site: str
    night: tuple
    blocks: list = field(default_factory=list)
    skipped: list = field(default_factory=list)

    def timeline(self):
        return [(name, start * STEP_MIN, (start + length) * STEP_MIN) for name, start, length in sorted(self.blocks, key=lambda b: b[1])]


def fill_report(plan, site):
    """How much of the night the plan uses, for the queue coordinator."""
    used = sum(length for _, _, length in plan.blocks) * STEP_MIN
    night = int(site.night_hours * 60)
    share = round(100 * used / night) if night else 0
    line = f"{plan.site}: {used} of {night} minutes scheduled ({share}%)"
    if plan.skipped:
        line += f"; not placed: {', '.join(plan.skipped)}"
    return line


def _runs(slots):
    run = []
    for s in slots:
        if run and s != run[-1] + 1:
            yield run
            run = []
        run.append(s)
    if run:
        yield run


def plan_night(targets, site, night):
    plan = Plan(site.code, night)
    busy = set()
    for target in sorted(targets, key=lambda t: (-t.priority, t.name)):
        need = -(-target.exposure_min // STEP_MIN)
        free = [s for s in observable_slots(target, site, night) if s not in busy]
        placed = False
        for run in _runs(free):
            if len(run) >= need:
                block = run[:need]
                busy.update(block)
                plan.blocks.append((target.name, block[0], need))
                placed = True
                break
        if not placed:
            plan.skipped.append(target.name)
    return plan
