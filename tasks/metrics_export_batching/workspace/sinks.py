"""Sinks that deliver batches to the metrics backend."""
from collections import deque

from batcher import Point


class TransportDown(ConnectionError):
    pass


class RecordingTransport:
    """Stands in for the HTTP client in tests and local runs."""

    def __init__(self):
        self.delivered: list[tuple[Point, ...]] = []
        self.down = False

    def post(self, batch: list[Point]) -> None:
        if self.down:
            raise TransportDown("backend unreachable")
        self.delivered.append(tuple(batch))


class RetryingSink:
    """Keeps batches that failed to send and retries them, oldest first, on the next send."""

    def __init__(self, transport: RecordingTransport, max_backlog: int = 50):
        self._transport = transport
        self._backlog: deque[list[Point]] = deque(maxlen=max_backlog)

    def send(self, batch: list[Point]) -> None:
        self._backlog.append(batch)
        self.drain()

    def drain(self) -> None:
        try:
            while self._backlog:
                self._transport.post(self._backlog[0])
                self._backlog.popleft()
        except TransportDown:
            pass

    def backlog(self) -> int:
        return len(self._backlog)
