"""Sensor readings waiting to be uploaded, oldest first.

The greenhouse controller has little memory, so the buffer is bounded and drops the oldest readings
once full.
"""
from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    sensor: str
    taken_at: int
    value: float

    def as_dict(self):
        return {"sensor": self.sensor, "t": self.taken_at, "v": self.value}


class ReadingBuffer:
    def __init__(self, max_size=1000):
        if max_size < 1:
            raise ValueError(f"max_size must be at least 1, got {max_size}")
        self._items = deque(maxlen=max_size)

    def __len__(self):
        return len(self._items)

    def add(self, reading):
        self._items.append(reading)

    def restore(self, readings):
        """Put readings that could not be sent back in front of newer ones, oldest first."""
        room = self._items.maxlen - len(self._items)
        kept = list(readings)[-room:] if room else []
        self._items.extendleft(reversed(kept))

    def drain(self):
        """Yield and remove readings, oldest first."""
        while self._items:
            yield self._items.popleft()
