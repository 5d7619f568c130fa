"""Turns order events into customer messages by asking every plugin."""


class Notifier:
    def __init__(self, registry):
        self._registry = registry
        self.outbox = []

    def order_shipped(self, order):
        """Collect the messages plugins produce for a shipped order; plugins may return None to skip."""
        if "order_id" not in order:
            raise ValueError(f"order without order_id: {order!r}")
        messages = [m for m in self._registry.emit("order.shipped", order) if m is not None]
        self.outbox.extend(messages)
        return messages
