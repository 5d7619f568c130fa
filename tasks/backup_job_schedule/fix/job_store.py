"""The job table on disk (JSON), shared by the scheduler daemon and the admin CLI."""
import json
from datetime import datetime, timedelta
from pathlib import Path

from jobs import BackupJob


def _duration_out(value: timedelta) -> float:
    # timedelta.seconds is only the seconds part (0..86399); the days would be lost.
    return value.total_seconds()


def _duration_in(value: float) -> timedelta:
    return timedelta(seconds=value)


def write_jobs(jobs, path: Path) -> None:
    rows = []
    for job in jobs:
        rows.append(
            {
                "name": job.name,
                "source": job.source,
                "interval_s": _duration_out(job.interval),
                "timeout_s": _duration_out(job.timeout),
                "last_run": job.last_run.isoformat() if job.last_run else None,
            }
        )
    Path(path).write_text(json.dumps(rows, indent=2))


def read_jobs(path: Path) -> list:
    path = Path(path)
    if not path.exists():
        return []
    jobs = []
    for row in json.loads(path.read_text()):
        last_run = datetime.fromisoformat(row["last_run"]) if row["last_run"] else None
        jobs.append(
            BackupJob(row["name"], row["source"], _duration_in(row["interval_s"]), _duration_in(row["timeout_s"]), last_run)
        )
    return jobs
