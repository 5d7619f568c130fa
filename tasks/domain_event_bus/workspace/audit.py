"""An audit trail that listens on the bus and keeps recent events for support staff."""
import collections
import threading


class AuditTrail:
    def __init__(self, bus, topics, limit=1000):
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self._lock = threading.Lock()
        self._entries = collections.deque(maxlen=limit)
        self._subscriptions = [bus.subscribe(topic, self._record) for topic in topics]

    def _record(self, event):
        with self._lock:
            # Copy the payload: publishers may reuse and mutate their dicts.
            self._entries.append((event.topic, dict(event.payload)))

    def entries(self, topic=None):
        with self._lock:
            return [e for e in self._entries if topic is None or e[0] == topic]

    def close(self):
        """Stop listening; entries recorded so far stay readable."""
        for subscription in self._subscriptions:
            subscription.cancel()
        self._subscriptions = []
