import threading


class AisleLocks:
    """One lock per aisle; a robot holds every aisle of its path while it drives."""

    def __init__(self, aisle_names):
        self._locks = {name: threading.Lock() for name in aisle_names}
        self._held = {}
        self._meta = threading.Lock()
        self.on_acquired = None

    def holder(self, aisle):
        with self._meta:
            return self._held.get(aisle)

    def reserve(self, robot, path, timeout=None):
        taken = []
        for aisle in dict.fromkeys(path):
            lock = self._locks[aisle]
            ok = lock.acquire(timeout=timeout) if timeout is not None else lock.acquire()
            if not ok:
                for a in reversed(taken):
                    self._release_one(a)
                return False
            with self._meta:
                self._held[aisle] = robot
            taken.append(aisle)
            if self.on_acquired is not None:
                self.on_acquired(robot, aisle)
        return True

    def _release_one(self, aisle):
        with self._meta:
            self._held.pop(aisle, None)
        self._locks[aisle].release()

    def release(self, robot, path):
        for aisle in dict.fromkeys(path):
            if self.holder(aisle) == robot:
                self._release_one(aisle)

    def busy(self):
        with self._meta:
            return dict(sorted(self._held.items()))
