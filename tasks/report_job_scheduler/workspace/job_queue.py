"""Pending jobs ordered by due time."""
import heapq

from jobs import ScheduledJob


class JobQueue:
    def __init__(self):
        self._jobs: dict[int, ScheduledJob] = {}
        self._heap: list[tuple[float, int]] = []

    def __len__(self) -> int:
        return len(self._jobs)

    def add(self, job: ScheduledJob) -> None:
        self._jobs[job.job_id] = job
        heapq.heappush(self._heap, (job.run_at, job.job_id))

    def cancel(self, job_id: int) -> ScheduledJob:
        if job_id not in self._jobs:
            raise KeyError(f"no pending job {job_id}")
        # The heap entry stays behind and is skipped when it surfaces.
        return self._jobs.pop(job_id)

    def pop_due(self, now: float) -> list[ScheduledJob]:
        due = []
        while self._heap and self._heap[0][0] <= now:
            _, job_id = heapq.heappop(self._heap)
            job = self._jobs.pop(job_id, None)
            if job is not None:
                due.append(job)
        return due
