"""Stores orders in a JSON document keyed by order id."""
import json
from pathlib import Path

from orders import Order, OrderStatus


def _status_from(raw) -> OrderStatus:
    # Exports from the old shop front carried no status, or free-text ones; those orders were never paid.
    try:
        return OrderStatus(raw)
    except ValueError:
        return OrderStatus.PENDING


class OrderRepository:
    def __init__(self, path: Path):
        self.path = Path(path)

    def save(self, orders) -> None:
        doc = {
            o.order_id: {"customer": o.customer, "skus": o.skus, "status": o.status.name}
            for o in orders
        }
        self.path.write_text(json.dumps(doc, indent=2, sort_keys=True))

    def load(self) -> dict:
        if not self.path.exists():
            return {}
        doc = json.loads(self.path.read_text())
        return {
            order_id: Order(order_id, row["customer"], list(row.get("skus", [])), _status_from(row.get("status")))
            for order_id, row in doc.items()
        }
