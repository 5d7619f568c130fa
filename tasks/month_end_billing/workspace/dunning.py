"""Dunning: what happens after a renewal payment fails."""
import datetime as dt

RETRY_AFTER_DAYS = (1, 3, 7)
GRACE_DAYS = 14


class Dunning:
    """Retries a failed charge after 1, 3 and 7 days and suspends the account after the grace period."""

    def __init__(self, failed_on):
        self.failed_on = failed_on
        self.paid_on = None
        self.attempts = []

    def retry_dates(self):
        return [self.failed_on + dt.timedelta(days=d) for d in RETRY_AFTER_DAYS]

    def suspend_on(self):
        return self.failed_on + dt.timedelta(days=GRACE_DAYS)

    def record_attempt(self, day, ok):
        self.attempts.append((day, ok))
        if ok:
            self.paid(day)

    def paid(self, day):
        if day < self.failed_on:
            raise ValueError("payment before the failure it settles")
        self.paid_on = day

    def state_on(self, day):
        if self.paid_on is not None and self.paid_on <= day:
            return "paid"
        if day >= self.suspend_on():
            return "suspended"
        return "retrying" if day >= self.retry_dates()[0] else "failed"

    def next_retry(self, day):
        upcoming = [d for d in self.retry_dates() if d > day]
        return upcoming[0] if upcoming else None
