from dataclasses import dataclass, field

from .topics import TopicName, match


@dataclass
class DeliveryReport:
    topic: str
    delivered: int = 0
    errors: list = field(default_factory=list)


class Bus:
    def __init__(self, raise_errors=False):
        self._handlers = []  # (pattern, handler)
        self.raise_errors = raise_errors
        self.published = 0

    def subscribe(self, pattern, handler):
        pattern = TopicName(pattern)
        self._handlers.append((pattern, handler))
        return handler

    def unsubscribe(self, pattern, handler):
        """Remove one registration; returns whether anything was removed."""
        for i, (p, h) in enumerate(self._handlers):
            if p == pattern and h == handler:
                del self._handlers[i]
                return True
        return False

    def handlers_for(self, topic):
        return [h for p, h in self._handlers if match(p, topic)]

    def subscriber_count(self, pattern=None):
        if pattern is None:
            return len(self._handlers)
        return sum(1 for p, _ in self._handlers if p == pattern)

    def publish(self, topic, message):
        topic = TopicName(topic)
        self.published += 1
        report = DeliveryReport(topic)
        for handler in list(self.handlers_for(topic)):
            try:
                handler(message)
                report.delivered += 1
            except Exception as exc:
                if self.raise_errors:
                    raise
                report.errors.append(exc)
        return report
