"""Orders and the service that moves them through their states."""
import itertools
from dataclasses import dataclass, field

from events import order_cancelled, order_paid, order_placed, order_shipped

_numbers = itertools.count(5001)


class OrderStateError(RuntimeError):
    pass


@dataclass
class Order:
    customer_email: str
    customer_phone: str
    total_cents: int
    number: int = field(default_factory=lambda: next(_numbers))
    state: str = "placed"
    history: list = field(default_factory=list)


class OrderService:
    TRANSITIONS = {"placed": {"paid", "cancelled"}, "paid": {"shipped", "cancelled"}, "shipped": set(), "cancelled": set()}

    def __init__(self):
        self.orders = {}

    def _move(self, order, state):
        if state not in self.TRANSITIONS[order.state]:
            raise OrderStateError(f"order {order.number}: cannot go from {order.state} to {state}")
        order.history.append((order.state, state))
        order.state = state

    def place(self, email, phone, total_cents):
        order = Order(email, phone, total_cents)
        self.orders[order.number] = order
        order_placed.send(self, order=order)
        return order

    def capture_payment(self, number):
        order = self.orders[number]
        self._move(order, "paid")
        order_paid.send(self, order=order, amount_cents=order.total_cents)

    def ship(self, number, tracking):
        order = self.orders[number]
        self._move(order, "shipped")
        order_shipped.send(self, order=order, tracking=tracking)

    def cancel(self, number, reason):
        order = self.orders[number]
        self._move(order, "cancelled")
        order_cancelled.send(self, order=order, reason=reason)
