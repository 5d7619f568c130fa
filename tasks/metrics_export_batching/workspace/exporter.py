"""Wiring used by services: one batcher over a retrying sink."""
from batcher import Batcher, Point
from sinks import RecordingTransport, RetryingSink


class MetricsExporter:
    def __init__(self, transport: RecordingTransport, batch_size: int = 100):
        self.sink = RetryingSink(transport)
        self.batcher = Batcher(self.sink, batch_size)

    def gauge(self, name: str, value: float, ts: int) -> None:
        self.batcher.add(Point(name, value, ts))

    def close(self) -> None:
        self.batcher.flush()
        self.sink.drain()
