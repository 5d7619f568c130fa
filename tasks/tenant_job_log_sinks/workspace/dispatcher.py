"""Routes queued jobs to the worker that owns each tenant."""
from collections import deque
from dataclasses import dataclass, field

from log_sink import JobLogSink
from worker import Worker


@dataclass
class Job:
    job_id: str
    tenant: str
    kind: str
    records: list[int] = field(default_factory=list)

    def execute(self) -> int:
        for value in self.records:
            if value < 0:
                raise ValueError(f"record {value} is negative")
        return sum(self.records)


class Dispatcher:
    def __init__(self, tenants: list[str]):
        self.sinks = {t: JobLogSink(t) for t in tenants}
        self.workers = {t: Worker(f"worker-{t}", self.sinks[t]) for t in tenants}
        self._queue: deque[Job] = deque()
        self.results: dict[str, int | None] = {}

    def submit(self, job: Job) -> None:
        if job.tenant not in self.workers:
            raise KeyError(f"no worker for tenant {job.tenant!r}")
        self._queue.append(job)

    def drain(self) -> int:
        """Run queued jobs in submission order; returns how many ran."""
        ran = 0
        while self._queue:
            job = self._queue.popleft()
            self.results[job.job_id] = self.workers[job.tenant].run(job)
            ran += 1
        return ran

    def close(self) -> None:
        for worker in self.workers.values():
            worker.close()
