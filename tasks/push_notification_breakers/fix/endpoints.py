"""Subscriber endpoints that receive push notifications."""
from dataclasses import dataclass, field

from circuit import CircuitBreaker


@dataclass
class Endpoint:
    name: str
    url: str
    # Three consecutive failures suspend an endpoint until an operator reinstates it.
    breaker: CircuitBreaker = field(default_factory=lambda: CircuitBreaker(threshold=3))


class EndpointDirectory:
    def __init__(self):
        self._endpoints: dict[str, Endpoint] = {}

    def register(self, endpoint: Endpoint) -> None:
        if not endpoint.url.startswith("https://"):
            raise ValueError(f"{endpoint.name}: endpoints must use https, got {endpoint.url}")
        if endpoint.name in self._endpoints:
            raise ValueError(f"endpoint {endpoint.name!r} is already registered")
        self._endpoints[endpoint.name] = endpoint

    def all(self) -> list[Endpoint]:
        return list(self._endpoints.values())

    def reinstate(self, name: str) -> None:
        self._endpoints[name].breaker.reset()
