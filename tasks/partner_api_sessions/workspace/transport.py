"""Requests, responses and an in-memory transport used for sandboxed runs and tests."""
from collections import deque
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Request:
    method: str
    url: str
    headers: dict[str, str]


@dataclass(frozen=True)
class Response:
    status: int
    body: str = ""
    headers: dict[str, str] = field(default_factory=dict)


class InMemoryTransport:
    """Answers each URL from a scripted list of responses, and records every request it sends."""

    def __init__(self, script: dict[str, list[Response]]):
        self._script = {url: deque(responses) for url, responses in script.items()}
        self.sent: list[Request] = []

    def send(self, request: Request) -> Response:
        self.sent.append(request)
        queue = self._script.get(request.url)
        if not queue:
            return Response(404, "not scripted")
        return queue.popleft()
