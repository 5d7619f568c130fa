"""Fans each notification out to every registered endpoint."""
from typing import Callable

from endpoints import Endpoint, EndpointDirectory

# send(endpoint, payload) raises ConnectionError when the endpoint is unreachable
Sender = Callable[[Endpoint, dict], None]


class NotificationDispatcher:
    def __init__(self, directory: EndpointDirectory, send: Sender):
        self.directory = directory
        self.send = send

    def deliver(self, payload: dict) -> dict[str, str]:
        """Returns each endpoint's outcome: "ok", "failed" or "suspended"."""
        outcome: dict[str, str] = {}
        for endpoint in self.directory.all():
            if endpoint.breaker.is_open:
                outcome[endpoint.name] = "suspended"
                continue
            try:
                self.send(endpoint, payload)
            except ConnectionError:
                endpoint.breaker.record_failure()
                outcome[endpoint.name] = "failed"
            else:
                endpoint.breaker.record_success()
                outcome[endpoint.name] = "ok"
        return outcome
