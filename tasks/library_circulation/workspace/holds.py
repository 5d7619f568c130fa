"""Holds: patrons queue for an item that is out; on return it waits on the shelf for the first in line."""
from collections import deque
from dataclasses import dataclass
from datetime import timedelta

PICKUP_DAYS = 7
MAX_HOLDS_PER_PATRON = 5


@dataclass(frozen=True)
class Ready:
    barcode: str
    patron: str
    shelf_until: object


class HoldQueue:
    def __init__(self):
        self._queues = {}
        self._ready = {}

    def place(self, barcode, patron):
        held = sum(patron in q for q in self._queues.values())
        if held >= MAX_HOLDS_PER_PATRON:
            raise ValueError(f"{patron} already has {held} holds")
        queue = self._queues.setdefault(barcode, deque())
        if patron in queue:
            raise ValueError(f"{patron} is already waiting for {barcode}")
        queue.append(patron)
        return len(queue)

    def returned(self, barcode, today):
        """The item came back: put it aside for the next patron in line, if any."""
        queue = self._queues.get(barcode)
        if not queue:
            return None
        ready = Ready(barcode, queue.popleft(), today + timedelta(days=PICKUP_DAYS))
        self._ready[barcode] = ready
        return ready

    def expire(self, today):
        """Items whose pickup window has closed go to the next patron (or back to the shelf)."""
        passed = []
        for barcode, ready in list(self._ready.items()):
            if today > ready.shelf_until:
                del self._ready[barcode]
                passed.append((barcode, self.returned(barcode, today)))
        return passed

    def cancel(self, barcode, patron):
        queue = self._queues.get(barcode)
        if not queue or patron not in queue:
            raise ValueError(f"{patron} has no hold on {barcode}")
        queue.remove(patron)

    def position(self, barcode, patron):
        queue = self._queues.get(barcode, deque())
        return list(queue).index(patron) + 1 if patron in queue else None
