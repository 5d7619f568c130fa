"""A re-entrant lock with acquire timeouts.

threading.RLock cannot report who holds it, and the guards need a timeout on
every acquire, so this small lock keeps its own owner and recursion count.
"""
import threading
import time


class ReentrantLock:
    def __init__(self):
        self._owner = None
        self._count = 0
        self._condition = threading.Condition(threading.Lock())

    @property
    def owner(self):
        return self._owner

    def acquire(self, timeout=None):
        """Acquire the lock, re-entering if the calling thread already holds it.

        Returns False when the lock could not be taken before `timeout` seconds.
        """
        me = threading.get_ident()
        deadline = None if timeout is None else time.monotonic() + timeout

        with self._condition:
            if self._owner == me:
                self._count += 1
                return True

            while self._owner is not None:
                if deadline is None:
                    self._condition.wait()
                    continue
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._condition.wait(timeout=remaining)

            self._owner = threading.current_thread()
            self._count = 1
            return True

    def release(self):
        with self._condition:
            if self._count == 0:
                raise RuntimeError("release() of an unlocked ReentrantLock")
            self._count -= 1
            if self._count == 0:
                self._owner = None
                self._condition.notify()

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc):
        self.release()
        return False
