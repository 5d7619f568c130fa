"""The collection hub: one thread per sensor puts readings on a channel, one consumer aggregates them."""
import threading

from aggregate import Aggregator
from vendor.ringchannel import Channel, Closed, Empty

IDLE_POLL_S = 0.2


class Hub:
    def __init__(self, sensors, thresholds=None, capacity=16):
        self.sensors = list(sensors)
        self.channel = Channel(capacity)
        self.aggregator = Aggregator(thresholds)
        self.errors = []
        self._producers = [threading.Thread(target=self._produce, args=(s,), name=f"sensor-{s.name}", daemon=True) for s in self.sensors]
        self._consumer = threading.Thread(target=self._consume, name="aggregator", daemon=True)

    def _produce(self, sensor):
        try:
            for reading in sensor.readings():
                self.channel.put(reading, timeout=2)
        except Exception as exc:
            self.errors.append((sensor.name, repr(exc)))

    def _consume(self):
        while True:
            try:
                reading = self.channel.get(timeout=IDLE_POLL_S)
            except Empty:
                continue
            except Closed:
                return
            self.aggregator.add(reading)

    def start(self):
        for thread in self._producers:
            thread.start()
        self._consumer.start()
        return self

    def finish(self, timeout=5.0):
        """Wait for the sensors, close the channel, wait for the aggregator; True if everything stopped."""
        for thread in self._producers:
            thread.join(timeout)
        self.channel.close()
        self._consumer.join(timeout)
        return not self._consumer.is_alive() and not any(t.is_alive() for t in self._producers)
