"""Handles returned by EventBus.subscribe, used to unsubscribe later."""


class Subscription:
    def __init__(self, bus, topic, handler):
        self.bus = bus
        self.topic = topic
        self.handler = handler
        self.active = True

    def cancel(self):
        if self.active:
            self.active = False
            self.bus.unsubscribe(self)

    def __call__(self, event):
        self.handler(event)


class OnceSubscription(Subscription):
    """Delivers a single event, then cancels itself."""

    def __call__(self, event):
        self.cancel()
        self.handler(event)
