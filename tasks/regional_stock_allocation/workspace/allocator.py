"""Splits an order across warehouses, filling from the customer's nearest warehouse first."""
from warehouse import InsufficientStock, Warehouse

Plan = dict[str, dict[str, int]]  # warehouse code -> sku -> quantity


class Allocator:
    def __init__(self, warehouses: list[Warehouse]):
        # Preference order: nearest first.
        self.warehouses = warehouses
        self._by_code = {w.code: w for w in warehouses}

    def allocate(self, order_id: str, lines: dict[str, int]) -> Plan:
        plan: Plan = {}
        try:
            for sku, qty in lines.items():
                remaining = qty
                for wh in self.warehouses:
                    take = min(remaining, wh.available(sku))
                    if take > 0:
                        wh.reserve(sku, take, order_id)
                        plan.setdefault(wh.code, {})[sku] = take
                        remaining -= take
                    if remaining == 0:
                        break
                if remaining:
                    raise InsufficientStock(f"order {order_id}: {remaining} x {sku} could not be placed")
        except InsufficientStock:
            # All or nothing: an order we cannot fill holds no stock.
            self.cancel(order_id, plan)
            raise
        return plan

    def cancel(self, order_id: str, plan: Plan) -> None:
        for code, skus in plan.items():
            for sku, qty in skus.items():
                self._by_code[code].release(sku, qty, order_id)
