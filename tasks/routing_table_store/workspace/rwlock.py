"""A readers-writer lock.

Many request threads read the routing table at once; the control plane writes
rarely, and its updates should take effect promptly. Readers share the lock and
a writer holds it alone.
"""
import threading
import time


class ReadWriteLock:
    def __init__(self):
        self._cond = threading.Condition()
        self._readers = 0
        self._writer = False
        self._writers_waiting = 0
        self._readers_waiting = 0

    @staticmethod
    def _remaining(deadline):
        return None if deadline is None else deadline - time.monotonic()

    def acquire_read(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            self._readers_waiting += 1
            try:
                while self._writer:
                    remaining = self._remaining(deadline)
                    if remaining is not None and remaining <= 0:
                        return False
                    self._cond.wait(remaining)
            finally:
                self._readers_waiting -= 1
            self._readers += 1
            return True

    def release_read(self):
        with self._cond:
            if self._readers == 0:
                raise RuntimeError("release_read() without a matching acquire_read()")
            self._readers -= 1
            if self._readers == 0:
                self._cond.notify_all()

    def acquire_write(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            self._writers_waiting += 1
            try:
                while self._writer or self._readers:
                    remaining = self._remaining(deadline)
                    if remaining is not None and remaining <= 0:
                        return False
                    self._cond.wait(remaining)
            finally:
                self._writers_waiting -= 1
            self._writer = True
            return True

    def release_write(self):
        with self._cond:
            if not self._writer:
                raise RuntimeError("release_write() without a matching acquire_write()")
            self._writer = False
            self._cond.notify_all()

    def stats(self):
        with self._cond:
            return {
                "readers": self._readers,
                "writer": self._writer,
                "writers_waiting": self._writers_waiting,
                "readers_waiting": self._readers_waiting,
            }
