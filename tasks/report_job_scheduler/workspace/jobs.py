"""Scheduled report jobs."""
from typing import Callable


class ScheduledJob:
    """A named action to run once at or after `run_at` (seconds on the scheduler's clock)."""

    _created = 0

    def __init__(self, name: str, run_at: float, action: Callable[[], object]):
        if run_at < 0:
            raise ValueError(f"job {name!r}: run_at must not be negative")
        self._created += 1
        self.job_id = self._created
        self.name = name
        self.run_at = run_at
        self.action = action

    def __repr__(self) -> str:
        return f"ScheduledJob({self.job_id}, {self.name!r}, run_at={self.run_at})"
