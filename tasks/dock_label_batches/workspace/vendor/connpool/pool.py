import contextlib
import threading
import time
from dataclasses import dataclass


class PoolExhausted(RuntimeError):
    pass


class PoolClosed(RuntimeError):
    pass


@dataclass
class PoolStats:
    opened: int = 0
    checkouts: int = 0
    waits: int = 0


class Pool:
    def __init__(self, factory, max_size=4, timeout=1.0):
        if max_size < 1:
            raise ValueError("max_size must be at least 1")
        self._factory = factory
        self.max_size = max_size
        self.timeout = timeout
        self._idle = []
        self._busy = set()
        self._closed = False
        self._cond = threading.Condition()
        self.stats = PoolStats()

    def checkout(self):
        deadline = time.monotonic() + self.timeout
        with self._cond:
            while True:
                if self._closed:
                    raise PoolClosed("the pool is closed")
                if self._idle:
                    conn = self._idle.pop()
                    break
                if len(self._busy) < self.max_size:
                    conn = self._factory()
                    self.stats.opened += 1
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise PoolExhausted(f"all {self.max_size} connections busy for {self.timeout} s")
                self.stats.waits += 1
                self._cond.wait(remaining)
            self._busy.add(id(conn))
            self.stats.checkouts += 1
            return conn

    def checkin(self, conn):
        with self._cond:
            self._busy.discard(id(conn))
            if self._closed:
                conn.close()
            else:
                self._idle.append(conn)
            self._cond.notify()

    @contextlib.contextmanager
    def connection(self):
        conn = self.checkout()
        try:
            yield conn
        finally:
            self.checkin(conn)

    def idle(self):
        return len(self._idle)

    def close(self):
        with self._cond:
            self._closed = True
            for conn in self._idle:
                conn.close()
            self._idle.clear()
