import inspect
import threading
import weakref

from .events import Event
from .patterns import TopicPattern


class Subscription:
    def __init__(self, hub, pattern, callback, weak):
        self.hub = hub
        self.pattern = pattern
        self.weak = weak
        if not weak:
            self._ref = lambda cb=callback: cb
        elif inspect.ismethod(callback):
            self._ref = weakref.WeakMethod(callback)
        else:
            self._ref = weakref.ref(callback)

    @property
    def callback(self):
        return self._ref()

    @property
    def alive(self):
        return self._ref() is not None

    def cancel(self):
        self.hub._remove(self)


class Hub:
    def __init__(self):
        self._subs = []
        self._lock = threading.Lock()
        self.delivered = 0
        self.errors = []

    def subscribe(self, pattern, callback, weak=True):
        if not callable(callback):
            raise TypeError("callback must be callable")
        sub = Subscription(self, TopicPattern(pattern), callback, weak)
        with self._lock:
            self._subs.append(sub)
        return sub

    def _remove(self, sub):
        with self._lock:
            if sub in self._subs:
                self._subs.remove(sub)

    def _prune(self):
        with self._lock:
            self._subs = [s for s in self._subs if s.alive]

    def publish(self, topic, **payload):
        event = Event(topic, dict(payload))
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            callback = sub.callback
            if callback is None or not sub.pattern.matches(topic):
                continue
            try:
                callback(event)
                self.delivered += 1
            except Exception as exc:
                self.errors.append((event, exc))
        self._prune()
        return event

    def subscriber_count(self, topic=None):
        self._prune()
        with self._lock:
            return sum(1 for s in self._subs if topic is None or s.pattern.matches(topic))
