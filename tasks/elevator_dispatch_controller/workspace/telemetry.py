import threading


class Telemetry:
    """Collects dispatch events for the building dashboard."""

    def __init__(self):
        self._lock = threading.Lock()
        self.events = []

    def record(self, kind, **details):
        with self._lock:
            self.events.append((kind, details))

    def count(self, kind):
        with self._lock:
            return sum(1 for k, _ in self.events if k == kind)

    def of_kind(self, kind):
        with self._lock:
            return [d for k, d in self.events if k == kind]
