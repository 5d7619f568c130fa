"""A bounded pool of browser sessions shared by scraper threads."""
import threading
from dataclasses import dataclass


class PoolTimeout(TimeoutError):
    pass


class PoolClosed(RuntimeError):
    pass


@dataclass(frozen=True)
class PoolStats:
    size: int
    idle: int
    in_use: int
    waiting: int


class BrowserPool:
    """Lends at most `max_sessions` sessions; sessions are launched lazily."""

    def __init__(self, launcher, max_sessions=4):
        if max_sessions < 1:
            raise ValueError("max_sessions must be at least 1")
        self._launcher = launcher
        self._max = max_sessions
        self._cond = threading.Condition()
        self._idle = []
        self._all = []
        self._waiting = 0
        self._closed = False

    def acquire(self, timeout=None):
        with self._cond:
            if self._closed:
                raise PoolClosed("pool is closed")
            self._waiting += 1
            try:
                # notify_all wakes every waiter for one released session: only the
                # first may take it, the others must go back to waiting.
                available = self._cond.wait_for(
                    lambda: self._closed or self._idle or len(self._all) < self._max, timeout
                )
            finally:
                self._waiting -= 1
            if self._closed:
                raise PoolClosed("pool closed while waiting")
            if not available:
                raise PoolTimeout(f"no browser free within {timeout}s")
            if self._idle:
                return self._idle.pop()
            session = self._launcher.launch()
            self._all.append(session)
            return session

    def release(self, session):
        with self._cond:
            if session not in self._all:
                raise ValueError(f"{session.session_id} does not belong to this pool")
            if session in self._idle:
                raise ValueError(f"{session.session_id} released twice")
            self._idle.append(session)
            self._cond.notify_all()

    def close(self):
        with self._cond:
            self._closed = True
            for session in self._all:
                session.close()
            self._cond.notify_all()

    def stats(self):
        with self._cond:
            return PoolStats(len(self._all), len(self._idle), len(self._all) - len(self._idle), self._waiting)
