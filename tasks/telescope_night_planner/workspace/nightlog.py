"""The night log the telescope operator keeps, and the printed schedule for the control room."""
from windows import STEP_MIN


def _ut(hours):
    hours %= 24
    h = int(hours)
    m = int(round((hours - h) * 60))
    if m == 60:
        h, m = (h + 1) % 24, 0
    return f"{h:02d}:{m:02d}"


def schedule_text(plan, site):
    year, month, day = plan.night
    lines = [f"{plan.site} {year:04d}-{month:02d}-{day:02d}"]
    for name, start_min, end_min in plan.timeline():
        start = site.night_start_ut + start_min / 60
        end = site.night_start_ut + end_min / 60
        lines.append(f"{_ut(start)}-{_ut(end)} UT  {name}")
    return lines


class NightLog:
    def __init__(self, plan):
        self.plan = plan
        self.entries = {}

    def record(self, target, done, note=""):
        if target not in {b[0] for b in self.plan.blocks}:
            raise KeyError(f"{target} is not in tonight's plan")
        self.entries[target] = (done, note)

    def summary(self):
        """Done, lost (with the reason) and still pending; efficiency is the share of planned minutes done."""
        planned = {name: length * STEP_MIN for name, _, length in self.plan.blocks}
        done = sorted(t for t, (ok, _) in self.entries.items() if ok)
        lost = {t: note for t, (ok, note) in sorted(self.entries.items()) if not ok}
        pending = sorted(t for t in planned if t not in self.entries)
        total = sum(planned.values())
        efficiency = round(100 * sum(planned[t] for t in done) / total) if total else 0
        return {"done": done, "lost": lost, "pending": pending, "efficiency": efficiency}
