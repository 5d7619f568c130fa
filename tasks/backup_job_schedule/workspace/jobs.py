"""Backup jobs: what to copy, how often, and how long one copy may take."""
from dataclasses import dataclass
from datetime import datetime, timedelta


# The daemon wakes up every five minutes; no job can run more often than that.
TICK = timedelta(minutes=5)


@dataclass
class BackupJob:
    name: str
    source: str
    interval: timedelta
    timeout: timedelta = timedelta(hours=1)
    last_run: datetime | None = None

    @property
    def effective_interval(self) -> timedelta:
        return max(self.interval, TICK)

    def next_run(self, now: datetime) -> datetime:
        """A job that never ran is due immediately."""
        return now if self.last_run is None else self.last_run + self.effective_interval

    def is_due(self, now: datetime) -> bool:
        return self.next_run(now) <= now
