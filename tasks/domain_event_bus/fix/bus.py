"""An in-process publish/subscribe bus shared by request threads."""
import threading

from events import Event
from subscription import OnceSubscription, Subscription


class EventBus:
    def __init__(self):
        self._lock = threading.Lock()
        self._subscribers = {}
        self.published = 0

    def subscribe(self, topic, handler):
        return self._add(Subscription(self, topic, handler))

    def subscribe_once(self, topic, handler):
        return self._add(OnceSubscription(self, topic, handler))

    def _add(self, subscription):
        with self._lock:
            self._subscribers.setdefault(subscription.topic, []).append(subscription)
        return subscription

    def unsubscribe(self, subscription):
        with self._lock:
            handlers = self._subscribers.get(subscription.topic, [])
            if subscription in handlers:
                handlers.remove(subscription)

    def subscriber_count(self, topic):
        with self._lock:
            return len(self._subscribers.get(topic, []))

    def publish(self, event):
        """Deliver `event` to every subscriber of its topic, in subscription order."""
        if not isinstance(event, Event):
            raise TypeError(f"expected Event, got {type(event).__name__}")
        with self._lock:
            self.published += 1
            subscriptions = list(self._subscribers.get(event.topic, []))
        # Handlers run without the lock: they may subscribe or cancel (once-subscriptions
        # cancel themselves), and the copy keeps those changes from skipping anyone.
        for subscription in subscriptions:
            if subscription.active:
                subscription(event)
