"""A session with one partner's API: base URL, headers (including auth) and retry policy."""
import time
from typing import Callable

from defaults import DEFAULT_HEADERS
from retry import RetryPolicy
from transport import InMemoryTransport, Request, Response


class Throttled(RuntimeError):
    pass


class Session:
    def __init__(
        self,
        base_url: str,
        transport: InMemoryTransport,
        headers: dict[str, str] | None = None,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.base_url = base_url.rstrip("/")
        self.transport = transport
        self.headers = dict(headers or DEFAULT_HEADERS)
        self.retry = retry or RetryPolicy()
        self.sleep = sleep

    def authenticate(self, token: str) -> None:
        self.headers["Authorization"] = f"Bearer {token}"

    def get(self, path: str) -> Response:
        request = Request("GET", f"{self.base_url}{path}", dict(self.headers))
        for attempt in range(1, self.retry.attempts + 1):
            response = self.transport.send(request)
            if response.status != 429:
                return response
            self.retry.on_throttled()
            if attempt < self.retry.attempts:
                self.sleep(self.retry.delay_s)
        raise Throttled(f"GET {request.url}: still throttled after {self.retry.attempts} attempts")
