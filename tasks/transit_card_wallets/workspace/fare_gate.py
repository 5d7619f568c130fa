"""Turnstiles: charge the fare for a route or refuse entry."""
from dataclasses import dataclass


@dataclass(frozen=True)
class TapResult:
    allowed: bool
    charged: int
    balance: int


class FareTable:
    def __init__(self, fares):
        self._fares = dict(fares)

    def fare(self, route):
        try:
            return self._fares[route]
        except KeyError:
            raise ValueError(f"no fare for route {route!r}") from None


class FareGate:
    def __init__(self, wallets, fares, journeys=None):
        self._wallets = wallets
        self._fares = fares
        self._journeys = journeys

    def tap(self, card_id, route):
        with self._wallets.lock_for(card_id):
            balance = self._wallets.balance(card_id)
            fare = self._fares.fare(route)
            if balance < fare:
                result = TapResult(False, 0, balance)
            else:
                self._wallets.set_balance(card_id, balance - fare)
                result = TapResult(True, fare, balance - fare)
        if self._journeys is not None:
            self._journeys.record(card_id, route, result)
        return result
