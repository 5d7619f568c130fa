"""Alerts the vineyard manager gets on the phone: frost and downy mildew risk."""
from collections import defaultdict, deque


class FrostAlert:
    def __init__(self, hub, blocks="*", threshold_c=1.0, notify=None):
        self.threshold_c = threshold_c
        self.notify = notify or (lambda msg: None)
        self.raised = []
        self._last = {}
        self.subscription = hub.subscribe(f"{blocks}/air_temp", self.on_reading)

    def on_reading(self, reading):
        previous = self._last.get(reading.block)
        self._last[reading.block] = reading.value
        if reading.value <= self.threshold_c and (previous is None or previous > self.threshold_c):
            message = f"frost risk in {reading.block}: {reading.value} C at minute {reading.minute}"
            self.raised.append(message)
            self.notify(message)


class MildewRisk:
    """Downy mildew '10-10-24' rule of thumb: leaves wet while air is above 10 C for a sustained spell."""

    def __init__(self, hub, window=4, notify=None):
        self.window = window
        self.notify = notify or (lambda msg: None)
        self.raised = []
        self._wet = defaultdict(lambda: deque(maxlen=window))
        self._temp = {}
        self.subscriptions = [
            hub.subscribe("*/leaf_wetness", self.on_wetness),
            hub.subscribe("*/air_temp", self.on_temp),
        ]

    def on_temp(self, reading):
        self._temp[reading.block] = reading.value

    def on_wetness(self, reading):
        warm = self._temp.get(reading.block, 0.0) > 10.0
        spell = self._wet[reading.block]
        spell.append(reading.value >= 50.0 and warm)
        if len(spell) == self.window and all(spell):
            message = f"mildew risk in {reading.block} at minute {reading.minute}"
            if message not in self.raised:
                self.raised.append(message)
                self.notify(message)
            spell.clear()


class AlertLog:
    """Collects alert messages for the morning report, counting repeats instead of listing them twice."""

    def __init__(self):
        self._counts = {}

    def add(self, message):
        self._counts[message] = self._counts.get(message, 0) + 1

    def report(self):
        if not self._counts:
            return "quiet night"
        return "\n".join(m if n == 1 else f"{m} (x{n})" for m, n in self._counts.items())

    def __len__(self):
        return sum(self._counts.values())
