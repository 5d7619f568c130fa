"""Turnstiles: check the pass, log the scan, count the ride."""
from collections import Counter

from lifts import LIFTS


class Turnstile:
    def __init__(self, lift_code, office, log):
        self.lift = LIFTS[lift_code]
        self.office = office
        self.log = log
        self.rides = Counter()
        self.refused = Counter()

    def scan(self, pass_id, day, minute):
        """True when the gate opens."""
        if not self.lift.is_open(minute):
            outcome = "closed"
        else:
            lift_pass = self.office.lookup(pass_id)
            reason = "unknown" if lift_pass is None else lift_pass.refusal(day)
            outcome = "ok" if reason is None else reason.replace(" ", "-")
            if reason is None:
                lift_pass.mark_used(day)
        self.log.record(self.lift.code, day, minute, pass_id, outcome)
        if outcome == "ok":
            self.rides[pass_id] += 1
            return True
        self.refused[outcome] += 1
        return False

    def summary(self):
        rides = sum(self.rides.values())
        refused = ", ".join(f"{k} {v}" for k, v in sorted(self.refused.items())) or "none refused"
        return f"{self.lift.name}: {rides} rides by {len(self.rides)} passes; {refused}"
