"""The box office turns ticket requests into confirmed or declined orders."""
from dataclasses import dataclass

from allocation import NotEnoughTickets, OrderLimitExceeded


@dataclass(frozen=True)
class OrderResult:
    ok: bool
    message: str


class BoxOffice:
    def __init__(self, pool):
        self._pool = pool
        self.confirmed = []

    def order(self, customer, tier, quantity):
        try:
            left = self._pool.allocate(tier, quantity)
        except NotEnoughTickets as exc:
            return OrderResult(False, f"sorry {customer}: only {exc.left} {tier} tickets left")
        except OrderLimitExceeded as exc:
            return OrderResult(False, str(exc))
        self.confirmed.append((customer, tier, quantity))
        return OrderResult(True, f"{quantity} x {tier} for {customer}; {left} left")

    def refund(self, customer, tier, quantity):
        self._pool.give_back(tier, quantity)
        self.confirmed.remove((customer, tier, quantity))
