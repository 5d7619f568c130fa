"""In-process publish/subscribe bus for service events."""
from collections import defaultdict
from typing import Callable

Handler = Callable[[dict], None]


class EventBus:
    def __init__(self):
        self._handlers: dict[str, list[Handler]] = defaultdict(list)

    def subscribe(self, topic: str, handler: Handler) -> Callable[[], None]:
        """Register `handler` for `topic`; returns a function that unsubscribes it."""
        self._handlers[topic].append(handler)
        return lambda: self._handlers[topic].remove(handler)

    def publish(self, topic: str, event: dict) -> int:
        """Deliver to the topic's handlers in subscription order; returns how many were called."""
        handlers = list(self._handlers.get(topic, ()))
        for handler in handlers:
            handler(event)
        return len(handlers)
