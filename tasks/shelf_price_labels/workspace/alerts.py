"""Low-stock alerts for the floor staff, raised from the catalog's stock events."""


class LowStockAlerts:
    def __init__(self, hub, store_id, threshold=3):
        self.threshold = threshold
        self.pending = []
        self.cleared = []
        hub.subscribe(f"catalog.{store_id}.stock", lambda event: self.on_stock(event))

    def on_stock(self, event):
        sku, stock = event.get("sku"), event.get("stock")
        if stock <= self.threshold and sku not in self.pending:
            self.pending.append(sku)
        elif stock > self.threshold and sku in self.pending:
            self.pending.remove(sku)
            self.cleared.append(sku)

    def acknowledge(self, sku):
        self.pending.remove(sku)
