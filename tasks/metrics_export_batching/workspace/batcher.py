"""Collects metric points and hands them to a sink in batches."""
from typing import NamedTuple, Protocol


class Point(NamedTuple):
    name: str
    value: float
    ts: int


class Sink(Protocol):
    def send(self, batch: list[Point]) -> None: ...


class Batcher:
    def __init__(self, sink: Sink, max_size: int = 100):
        if max_size < 1:
            raise ValueError("max_size must be at least 1")
        self._sink = sink
        self.max_size = max_size
        self._pending: list[Point] = []

    def add(self, point: Point) -> None:
        self._pending.append(point)
        if len(self._pending) >= self.max_size:
            self.flush()

    def flush(self) -> None:
        if not self._pending:
            return
        self._sink.send(self._pending)
        self._pending.clear()

    def pending(self) -> int:
        return len(self._pending)
