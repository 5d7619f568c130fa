"""Reservations: units held for an order between checkout and shipping, or until they expire."""
import itertools
from dataclasses import dataclass, field

HOLD_MINUTES = 30

_ids = itertools.count(1)


class ReservationError(ValueError):
    pass


@dataclass
class Reservation:
    order_id: str
    lines: dict
    created_at: int
    reservation_id: int = field(default_factory=lambda: next(_ids))
    state: str = "held"

    def expires_at(self):
        return self.created_at + HOLD_MINUTES


class ReservationBook:
    def __init__(self, stock):
        self.stock = stock
        self.by_order = {}

    def reserve(self, order_id, lines, now):
        if order_id in self.by_order:
            raise ReservationError(f"order {order_id} already holds stock")
        held = []
        try:
            for sku, quantity in sorted(lines.items()):
                self.stock.hold(sku, quantity)
                held.append((sku, quantity))
        except Exception:
            for sku, quantity in held:
                self.stock.release(sku, quantity)
            raise
        reservation = Reservation(order_id, dict(lines), now)
        self.by_order[order_id] = reservation
        return reservation

    def fulfil(self, order_id):
        reservation = self._held(order_id)
        for sku, quantity in reservation.lines.items():
            self.stock.ship(sku, quantity)
        reservation.state = "shipped"
        return reservation

    def cancel(self, order_id):
        reservation = self._held(order_id)
        for sku, quantity in reservation.lines.items():
            self.stock.release(sku, quantity)
        reservation.state = "cancelled"
        return reservation

    def expire(self, now):
        expired = [r.order_id for r in self.by_order.values() if r.state == "held" and r.expires_at() <= now]
        for order_id in expired:
            self.cancel(order_id)
            self.by_order[order_id].state = "expired"
        return expired

    def _held(self, order_id):
        reservation = self.by_order.get(order_id)
        if reservation is None or reservation.state != "held":
            raise ReservationError(f"order {order_id} holds no stock")
        return reservation
