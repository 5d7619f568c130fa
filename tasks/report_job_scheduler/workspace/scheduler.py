"""Runs report jobs when they fall due and keeps a log of what ran."""
from typing import Callable

from job_queue import JobQueue
from jobs import ScheduledJob


class Scheduler:
    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self.queue = JobQueue()
        self.ran: list[str] = []
        self.failures: dict[str, str] = {}

    def schedule(self, name: str, delay: float, action: Callable[[], object]) -> int:
        job = ScheduledJob(name, self.clock() + delay, action)
        self.queue.add(job)
        return job.job_id

    def cancel(self, job_id: int) -> None:
        self.queue.cancel(job_id)

    def tick(self) -> int:
        """Run every job that is due now; returns how many ran."""
        due = self.queue.pop_due(self.clock())
        for job in due:
            try:
                job.action()
            except Exception as exc:  # one failing report must not stop the others
                self.failures[job.name] = f"{type(exc).__name__}: {exc}"
            else:
                self.ran.append(job.name)
        return len(due)
