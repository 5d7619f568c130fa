"""A bounded pool of upstream leases: each in-flight request holds one while it talks to storage."""
import itertools
import threading
import time


class PoolExhausted(RuntimeError):
    pass


class Lease:
    __slots__ = ("lease_id", "holder", "taken_at", "pool", "released")

    def __init__(self, lease_id, holder, pool):
        self.lease_id = lease_id
        self.holder = holder
        self.taken_at = time.monotonic()
        self.pool = pool
        self.released = False

    def release(self):
        self.pool.release(self)

    def __repr__(self):
        return f"Lease({self.lease_id}, holder={self.holder!r})"


class LeasePool:
    def __init__(self, capacity, acquire_timeout=0.05):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.acquire_timeout = acquire_timeout
        self._ids = itertools.count(1)
        self._held = {}
        self._cond = threading.Condition()
        self.granted = 0
        self.refused = 0

    def acquire(self, holder):
        deadline = time.monotonic() + self.acquire_timeout
        with self._cond:
            while len(self._held) >= self.capacity:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self.refused += 1
                    raise PoolExhausted(f"all {self.capacity} leases in use")
                self._cond.wait(remaining)
            lease = Lease(next(self._ids), holder, self)
            self._held[lease.lease_id] = lease
            self.granted += 1
            return lease

    def release(self, lease):
        with self._cond:
            if lease.released:
                raise RuntimeError(f"{lease!r} released twice")
            lease.released = True
            del self._held[lease.lease_id]
            self._cond.notify()

    def in_use(self):
        with self._cond:
            return len(self._held)

    def holders(self):
        with self._cond:
            return sorted(lease.holder for lease in self._held.values())
