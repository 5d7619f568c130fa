"""Stock ledger: the movement history auditors reconcile a warehouse's counts against."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Movement:
    warehouse: str
    order_id: str
    sku: str
    delta: int
    reason: str  # "reserve", "release" or "ship"


class StockLedger:
    entries: list[Movement] = []

    def __init__(self, warehouse_code: str):
        self.warehouse_code = warehouse_code

    def record(self, order_id: str, sku: str, delta: int, reason: str) -> None:
        self.entries.append(Movement(self.warehouse_code, order_id, sku, delta, reason))

    def for_order(self, order_id: str) -> list[Movement]:
        return [m for m in self.entries if m.order_id == order_id]
