"""The order service publishes its order records on the bus."""
from bus import WebhookBus


class OrderService:
    def __init__(self, bus: WebhookBus):
        self.bus = bus
        self.orders: dict[str, dict] = {}

    def create(self, order_id: str, customer: dict, total: float) -> None:
        order = {"order_id": order_id, "status": "created", "total": total, "customer": dict(customer)}
        self.orders[order_id] = order
        self.bus.publish("order.created", order)

    def ship(self, order_id: str) -> None:
        order = self.orders[order_id]
        order["status"] = "shipped"
        self.bus.publish("order.shipped", order)
