"""Journey history shown in the rider app and used for monthly statements."""
import threading
from collections import defaultdict
from dataclasses import dataclass


@dataclass(frozen=True)
class Journey:
    card_id: str
    route: str
    charged: int
    allowed: bool


class JourneyLog:
    def __init__(self):
        self._lock = threading.Lock()
        self._by_card = defaultdict(list)

    def record(self, card_id, route, result):
        with self._lock:
            self._by_card[card_id].append(Journey(card_id, route, result.charged, result.allowed))

    def history(self, card_id):
        with self._lock:
            return list(self._by_card.get(card_id, []))

    def total_spent(self, card_id):
        return sum(j.charged for j in self.history(card_id))

    def refused(self, card_id):
        """Taps refused for lack of balance: riders get a top-up reminder after two."""
        return [j for j in self.history(card_id) if not j.allowed]
