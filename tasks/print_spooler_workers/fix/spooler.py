"""The shared spool: jobs wait here until a printer that can handle them takes them."""
import threading
from collections import deque


class SpoolClosed(RuntimeError):
    pass


class Spooler:
    def __init__(self, quota=None):
        self._jobs = deque()
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._idle_changed = threading.Condition(self._lock)
        self.quota = quota
        self._closed = False
        self._idle = set()
        self.submitted = 0

    def submit(self, job):
        with self._cond:
            if self._closed:
                raise SpoolClosed(f"spool closed; job {job.title!r} refused")
            if self.quota is not None:
                self.quota.charge(job.owner, job.sheets)
            self._jobs.append(job)
            self.submitted += 1
            self._cond.notify_all()
            self._idle.clear()
        return job.job_id

    def _take_for(self, printer):
        for job in self._jobs:
            if printer.can_print(job):
                self._jobs.remove(job)
                return job
        return None

    def _has_work_for(self, printer):
        return any(printer.can_print(job) for job in self._jobs)

    def next_job(self, printer):
        """Block until there is a job this printer can print; None once the spool is closed."""
        with self._cond:
            while not self._closed and not self._has_work_for(printer):
                self._idle.add(printer.name)
                self._idle_changed.notify_all()
                self._cond.wait()
                self._idle.discard(printer.name)
            return self._take_for(printer)

    def wait_idle(self, count, timeout):
        """Wait until `count` printers are blocked waiting for work (used by operators and tests)."""
        with self._idle_changed:
            return self._idle_changed.wait_for(lambda: len(self._idle) >= count, timeout)

    def pending(self):
        with self._cond:
            return [job.job_id for job in self._jobs]

    def close(self):
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            self._idle.clear()
