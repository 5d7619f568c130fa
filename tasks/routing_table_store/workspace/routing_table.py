"""The routing table shared by request threads and the control plane."""
from contextlib import contextmanager

from routes import validate_route
from rwlock import ReadWriteLock


class RoutingTable:
    def __init__(self, routes=None):
        self.lock = ReadWriteLock()
        self._routes = {}
        self._version = 0
        for prefix, backends in (routes or {}).items():
            prefix, backends = validate_route(prefix, backends)
            self._routes[prefix] = backends

    @contextmanager
    def reading(self, timeout=None):
        if not self.lock.acquire_read(timeout):
            raise TimeoutError("routing table busy")
        try:
            yield self
        finally:
            self.lock.release_read()

    def resolve(self, path, timeout=None):
        """Backends for the longest route prefix matching `path`."""
        with self.reading(timeout):
            matches = [p for p in self._routes if path.startswith(p)]
            if not matches:
                raise LookupError(f"no route for {path}")
            return self._routes[max(matches, key=len)]

    def version(self):
        with self.reading():
            return self._version

    def apply(self, changes, timeout=None):
        """Replace or add routes; returns the new table version."""
        validated = dict(validate_route(p, b) for p, b in changes.items())
        if not self.lock.acquire_write(timeout):
            raise TimeoutError("could not lock routing table for update")
        try:
            self._routes.update(validated)
            self._version += 1
            return self._version
        finally:
            self.lock.release_write()
