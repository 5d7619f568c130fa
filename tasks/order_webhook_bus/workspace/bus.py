"""In-process webhook bus: ordered delivery to subscribers plus a replayable history.

Subscribers that join late (a new integration, a rebuilt read model) catch up
with `replay`, so history must show each event as it was when published.
"""
import itertools
from dataclasses import dataclass
from typing import Callable


@dataclass
class Subscriber:
    name: str
    handler: Callable[[dict], None]
    topics: tuple[str, ...]
    failures: int = 0

    def wants(self, topic: str) -> bool:
        return any(topic == t or (t.endswith(".*") and topic.startswith(t[:-1])) for t in self.topics)


class WebhookBus:
    def __init__(self):
        self._subscribers: list[Subscriber] = []
        self._seq = itertools.count(1)
        self.history: list[dict] = []

    def subscribe(self, name: str, handler: Callable[[dict], None], *topics: str) -> Subscriber:
        sub = Subscriber(name, handler, topics or ("*",))
        self._subscribers.append(sub)
        return sub

    def publish(self, topic: str, event: dict) -> int:
        seq = next(self._seq)
        self.history.append({"seq": seq, "topic": topic, "event": event})
        for sub in self._subscribers:
            if "*" in sub.topics or sub.wants(topic):
                try:
                    sub.handler(event)
                except Exception:
                    sub.failures += 1
        return seq

    def replay(self, since_seq: int = 0) -> list[tuple[str, dict]]:
        return [(r["topic"], r["event"]) for r in self.history if r["seq"] > since_seq]
