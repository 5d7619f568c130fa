"""The office dashboard: latest value per block and kind, plus a short trend."""
from collections import defaultdict, deque


class Dashboard:
    def __init__(self, hub, pattern="*", trend=3):
        self.latest = {}
        self.trend = defaultdict(lambda: deque(maxlen=trend))
        self.subscription = hub.subscribe(pattern, self.update)

    def update(self, reading):
        key = (reading.block, reading.kind)
        self.latest[key] = reading.value
        self.trend[key].append(reading.value)

    def direction(self, block, kind):
        values = list(self.trend[(block, kind)])
        if len(values) < 2:
            return "steady"
        delta = values[-1] - values[0]
        return "rising" if delta > 0.5 else "falling" if delta < -0.5 else "steady"

    def close(self):
        self.subscription.cancel()

    def table(self):
        return [f"{b} {k}: {v}" for (b, k), v in sorted(self.latest.items())]
