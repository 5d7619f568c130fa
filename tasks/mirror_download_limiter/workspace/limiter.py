"""Caps how many downloads run at once, so the mirrors do not ban us."""
import threading


class ConcurrencyLimiter:
    def __init__(self, limit):
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self.limit = limit
        self._slots = threading.Semaphore(limit)
        self._lock = threading.Lock()
        self.active = 0

    def acquire(self):
        self._slots.acquire()
        with self._lock:
            self.active += 1

    def release(self):
        with self._lock:
            self.active -= 1
        self._slots.release()
