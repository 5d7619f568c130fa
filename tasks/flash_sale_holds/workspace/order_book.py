"""Completed flash-sale purchases."""
import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class Purchase:
    item: str
    shopper: str


class OrderBook:
    def __init__(self):
        self._lock = threading.Lock()
        self._purchases = []

    def record(self, item, shopper):
        with self._lock:
            self._purchases.append(Purchase(item, shopper))

    def purchases(self, item=None):
        with self._lock:
            return [p for p in self._purchases if item is None or p.item == item]
