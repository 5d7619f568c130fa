"""Per-person sheet quotas for the print room, reset each month."""
import threading


class QuotaExceeded(RuntimeError):
    pass


class Quota:
    def __init__(self, monthly_sheets, overrides=None):
        if monthly_sheets < 1:
            raise ValueError("monthly quota must be at least one sheet")
        self.monthly_sheets = monthly_sheets
        self.overrides = dict(overrides or {})
        self.used = {}
        self._lock = threading.Lock()

    def allowance(self, owner):
        return self.overrides.get(owner, self.monthly_sheets)

    def charge(self, owner, sheets):
        with self._lock:
            used = self.used.get(owner, 0)
            if used + sheets > self.allowance(owner):
                raise QuotaExceeded(f"{owner}: {used} of {self.allowance(owner)} sheets used, job needs {sheets}")
            self.used[owner] = used + sheets

    def remaining(self, owner):
        with self._lock:
            return self.allowance(owner) - self.used.get(owner, 0)

    def new_month(self):
        with self._lock:
            self.used.clear()
