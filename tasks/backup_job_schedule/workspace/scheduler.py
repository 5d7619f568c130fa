"""Decides which backups to start; every change is written through to the job table."""
from datetime import datetime, timedelta
from pathlib import Path

from job_store import read_jobs, write_jobs
from jobs import BackupJob


class Scheduler:
    def __init__(self, table: Path):
        self.table = Path(table)
        self.jobs = {job.name: job for job in read_jobs(self.table)}

    def add(self, job: BackupJob) -> None:
        if job.interval <= timedelta(0):
            raise ValueError(f"{job.name}: interval must be positive")
        self.jobs[job.name] = job
        write_jobs(self.jobs.values(), self.table)

    def record_run(self, name: str, started: datetime) -> None:
        self.jobs[name].last_run = started
        write_jobs(self.jobs.values(), self.table)

    def due(self, now: datetime) -> list:
        return sorted(name for name, job in self.jobs.items() if job.is_due(now))

    def upcoming(self, now: datetime, horizon: timedelta) -> list:
        """``(time, name)`` for every run that will start before ``now + horizon``."""
        runs = []
        for job in self.jobs.values():
            at = job.next_run(now)
            while at < now + horizon:
                runs.append((at, job.name))
                at += job.effective_interval
        return sorted(runs)
