"""Collects per-topic series from bus events for the health dashboard."""
from collections import defaultdict
from dataclasses import dataclass

from event_bus import EventBus


@dataclass(frozen=True)
class MetricSpec:
    topic: str
    # Event field holding the sample; None counts each event as 1.
    value_field: str | None = None


class MetricsCollector:
    def __init__(self, specs: list[MetricSpec]):
        self.specs = specs
        self.series: dict[str, list[float]] = defaultdict(list)
        self._unsubscribe = []

    def attach(self, bus: EventBus) -> None:
        for spec in self.specs:
            def on_event(event: dict) -> None:
                value = 1.0 if spec.value_field is None else float(event[spec.value_field])
                self.series[spec.topic].append(value)

            self._unsubscribe.append(bus.subscribe(spec.topic, on_event))

    def detach(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()

    def count(self, topic: str) -> int:
        return len(self.series.get(topic, ()))

    def total(self, topic: str) -> float:
        return sum(self.series.get(topic, ()))
