"""A one-shot job scheduler driven by an external clock tick.

Jobs sit in a heap ordered by run time; `run_due(now)` runs everything whose time has come.
"""
import heapq
import itertools
from dataclasses import dataclass


@dataclass
class Job:
    name: str
    run_at: float
    action: object


class Scheduler:
    def __init__(self):
        self._heap = []
        self._jobs = {}
        self._order = itertools.count()

    def schedule(self, name, run_at, action):
        if name in self._jobs:
            raise ValueError(f"a job named {name!r} is already scheduled")
        job = Job(name, run_at, action)
        self._jobs[name] = job
        heapq.heappush(self._heap, (run_at, next(self._order), name))
        return job

    def reschedule(self, name, run_at):
        job = self._jobs[name]
        job.run_at = run_at
        heapq.heappush(self._heap, (run_at, next(self._order), name))

    def cancel(self, name):
        return self._jobs.pop(name, None) is not None

    def pending(self):
        return sorted(self._jobs.values(), key=lambda job: job.run_at)

    def run_due(self, now):
        """Run every job due at or before `now`, earliest first; return their names."""
        ran = []
        while self._heap and self._heap[0][0] <= now:
            _, _, name = heapq.heappop(self._heap)
            job = self._jobs.pop(name, None)
            if job is None:
                continue
            job.action()
            ran.append(name)
        return ran
