"""The DBA-facing planner: book, move and call off maintenance windows (times in minutes)."""


class MaintenancePlanner:
    def __init__(self, scheduler, log):
        self._scheduler = scheduler
        self._log = log
        self.now = 0

    def book(self, kind, database, at):
        name = f"{kind}:{database}"
        self._scheduler.schedule(name, at, self._log.operation(kind, database))
        return name

    def move(self, name, minutes):
        """Shift a booked window later (positive) or earlier (negative)."""
        job = next((j for j in self._scheduler.pending() if j.name == name), None)
        if job is None:
            raise KeyError(f"no window booked as {name!r}")
        self._scheduler.reschedule(name, job.run_at + minutes)

    def call_off(self, name):
        if not self._scheduler.cancel(name):
            raise KeyError(f"no window booked as {name!r}")

    def advance_to(self, minute):
        self.now = minute
        return self._scheduler.run_due(minute)
