"""Delivers webhook events to subscriber URLs over an injectable transport."""

from dataclasses import dataclass, field

from backoff import delay_seconds
from retry_policy import RetryPolicy


@dataclass
class DeliveryReport:
    url: str
    delivered: bool
    statuses: list = field(default_factory=list)
    waited_seconds: float = 0.0

    @property
    def attempts(self):
        return len(self.statuses)


class Dispatcher:
    def __init__(self, transport, sleep, policy=None):
        """`transport(url, body) -> status code`; `sleep(seconds)` is injected so tests do not wait."""
        self._transport = transport
        self._sleep = sleep
        self._policy = policy or RetryPolicy()

    def deliver(self, url, body):
        report = DeliveryReport(url=url, delivered=False)
        attempt = 0
        while True:
            attempt += 1
            status = self._transport(url, body)
            report.statuses.append(status)
            if 200 <= status < 300:
                report.delivered = True
                return report
            if self._policy.is_permanent(status) or not self._policy.allows(attempt):
                return report
            wait = delay_seconds(attempt)
            report.waited_seconds += wait
            self._sleep(wait)
