"""Stock held at one warehouse: on-hand counts and the quantities reserved for open orders."""
from ledger import StockLedger


class InsufficientStock(Exception):
    pass


class Warehouse:
    reserved: dict[str, int] = {}

    def __init__(self, code: str, on_hand: dict[str, int]):
        self.code = code
        self.on_hand = dict(on_hand)
        self.ledger = StockLedger(code)

    def available(self, sku: str) -> int:
        return self.on_hand.get(sku, 0) - self.reserved.get(sku, 0)

    def reserve(self, sku: str, qty: int, order_id: str) -> None:
        if qty <= 0:
            raise ValueError(f"reserve quantity must be positive, got {qty}")
        if self.available(sku) < qty:
            raise InsufficientStock(f"{self.code}: {qty} x {sku} requested, {self.available(sku)} available")
        self.reserved[sku] = self.reserved.get(sku, 0) + qty
        self.ledger.record(order_id, sku, -qty, "reserve")

    def release(self, sku: str, qty: int, order_id: str) -> None:
        held = self.reserved.get(sku, 0)
        if qty > held:
            raise ValueError(f"{self.code}: cannot release {qty} x {sku}, only {held} reserved")
        self.reserved[sku] = held - qty
        self.ledger.record(order_id, sku, qty, "release")

    def ship(self, sku: str, qty: int, order_id: str) -> None:
        """Ship reserved stock: it leaves both the reservation and the shelf."""
        self.release(sku, qty, order_id)
        self.on_hand[sku] -= qty
        self.ledger.record(order_id, sku, -qty, "ship")
