"""Publish/subscribe for readings. The hub holds its subscribers weakly: a dashboard or alert that is
dropped stops receiving readings without having to unsubscribe first."""
import fnmatch
import weakref


class Subscription:
    def __init__(self, hub, pattern, ref):
        self.hub = hub
        self.pattern = pattern
        self.ref = ref
        self.delivered = 0

    def alive(self):
        return self.ref() is not None

    def cancel(self):
        self.hub._remove(self)


class EventHub:
    def __init__(self, retain=False):
        self._subs = []
        self._retained = {}
        self.retain = retain
        self.published = 0
        self.dropped = 0

    def retained(self, pattern="*"):
        """Last reading per topic matching `pattern`, in topic order (only when the hub retains)."""
        return [r for t, r in sorted(self._retained.items()) if fnmatch.fnmatchcase(t, pattern)]

    def subscribe(self, pattern, callback):
        sub = Subscription(self, pattern, weakref.ref(callback))
        self._subs.append(sub)
        if self.retain:
            for reading in self.retained(pattern):
                callback(reading)
                sub.delivered += 1
        return sub

    def _remove(self, sub):
        if sub in self._subs:
            self._subs.remove(sub)

    def publish(self, reading):
        self.published += 1
        if self.retain:
            self._retained[reading.topic] = reading
        delivered = 0
        for sub in list(self._subs):
            callback = sub.ref()
            if callback is None:
                self._remove(sub)
                self.dropped += 1
                continue
            if fnmatch.fnmatchcase(reading.topic, sub.pattern):
                callback(reading)
                sub.delivered += 1
                delivered += 1
        return delivered

    def subscriber_count(self):
        return sum(1 for s in self._subs if s.alive())
