"""Stock levels per SKU and reservations against them."""


class OutOfStock(Exception):
    def __init__(self, sku, wanted, available):
        super().__init__(f"{sku}: wanted {wanted}, only {available} on hand")
        self.sku = sku
        self.wanted = wanted
        self.available = available


class StockService:
    def __init__(self, pool):
        self._pool = pool

    def receive(self, sku, quantity):
        """Book an inbound delivery."""
        if quantity <= 0:
            raise ValueError(f"quantity must be positive, got {quantity}")
        with self._pool.transaction() as conn:
            conn.put("stock", sku, conn.get("stock", sku, 0) + quantity)

    def reserve(self, order_id, sku, quantity):
        """Hold `quantity` units of `sku` for an order, or raise OutOfStock."""
        with self._pool.transaction() as conn:
            if conn.get("reservations", order_id) is not None:
                raise ValueError(f"order {order_id} already holds a reservation")
            on_hand = conn.get("stock", sku, 0)
            conn.put("reservations", order_id, (sku, quantity))
            if on_hand < quantity:
                raise OutOfStock(sku, quantity, on_hand)
            conn.put("stock", sku, on_hand - quantity)

    def on_hand(self, sku):
        with self._pool.transaction() as conn:
            return conn.get("stock", sku, 0)

    def reservation(self, order_id):
        with self._pool.transaction() as conn:
            return conn.get("reservations", order_id)
