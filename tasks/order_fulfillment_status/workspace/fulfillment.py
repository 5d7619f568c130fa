"""The fulfillment desk: takes payments, builds the warehouse pick list and ships."""
from order_repository import OrderRepository
from orders import Order, OrderStatus


class FulfillmentDesk:
    def __init__(self, repository: OrderRepository):
        self.repository = repository
        self.orders = repository.load()

    def _commit(self) -> None:
        self.repository.save(self.orders.values())

    def place(self, order_id: str, customer: str, skus) -> Order:
        if order_id in self.orders:
            raise ValueError(f"duplicate order id {order_id}")
        order = Order(order_id, customer, list(skus))
        self.orders[order_id] = order
        self._commit()
        return order

    def pay(self, order_id: str) -> None:
        self.orders[order_id].move_to(OrderStatus.PAID)
        self._commit()

    def cancel(self, order_id: str) -> None:
        self.orders[order_id].move_to(OrderStatus.CANCELLED)
        self._commit()

    def pick_list(self) -> list:
        """SKUs the warehouse must pick: everything on paid, not yet shipped orders."""
        return sorted(sku for o in self.orders.values() if o.status is OrderStatus.PAID for sku in o.skus)

    def ship_all_paid(self) -> list:
        shipped = [o for o in self.orders.values() if o.status is OrderStatus.PAID]
        for order in shipped:
            order.move_to(OrderStatus.SHIPPED)
        self._commit()
        return [o.order_id for o in shipped]
