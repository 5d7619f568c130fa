"""Guards that serialise access to shared resources."""
import threading

from kv_store import SharedResource
from locking import ReentrantLock


class ResourceGuard:
    """Wraps a SharedResource so every read and write happens under one lock."""

    def __init__(self, resource=None):
        self.resource = resource if resource is not None else SharedResource()
        self._lock = ReentrantLock()

    def _take(self, timeout, what):
        if not self._lock.acquire(timeout=timeout):
            raise TimeoutError(f"could not acquire lock for {what}")

    def read(self, key, timeout=None):
        self._take(timeout, f"read({key!r})")
        try:
            return self.resource.read(key)
        finally:
            self._lock.release()

    def write(self, key, value, timeout=None):
        self._take(timeout, f"write({key!r})")
        try:
            self.resource.write(key, value)
        finally:
            self._lock.release()

    def read_then_write(self, key, transform, timeout=None):
        """Apply `transform` to the current value atomically and return the new value."""
        self._take(timeout, f"read_then_write({key!r})")
        try:
            current = self.read(key, timeout=timeout)
            new_value = transform(current)
            self.write(key, new_value, timeout=timeout)
            return new_value
        finally:
            self._lock.release()


class LockManager:
    """Hands out one guard per resource name."""

    def __init__(self):
        self._guards = {}
        self._mutex = threading.Lock()

    def get_guard(self, name):
        with self._mutex:
            guard = self._guards.get(name)
            if guard is None:
                guard = self._guards[name] = ResourceGuard()
            return guard

    def names(self):
        with self._mutex:
            return sorted(self._guards)
