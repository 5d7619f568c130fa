"""One lock per ward, created on first use and shared by every desk."""
import threading


class WardLocks:
    def __init__(self):
        self._guard = threading.Lock()
        self._locks = {}

    def for_ward(self, name):
        with self._guard:
            lock = self._locks.get(name)
            if lock is None:
                lock = self._locks[name] = threading.Lock()
            return lock

    def ordered(self, *names):
        """The locks of several wards, in one global order, so two transfers cannot wait on each other."""
        unique = sorted(set(names))
        return [self.for_ward(n) for n in unique]

    def known(self):
        with self._guard:
            return sorted(self._locks)
