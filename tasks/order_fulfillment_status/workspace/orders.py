"""Orders and the lifecycle they move through."""
from dataclasses import dataclass, field
from enum import Enum


class OrderStatus(Enum):
    PENDING = "pending"
    PAID = "paid"
    SHIPPED = "shipped"
    CANCELLED = "cancelled"


ALLOWED = {
    OrderStatus.PENDING: {OrderStatus.PAID, OrderStatus.CANCELLED},
    OrderStatus.PAID: {OrderStatus.SHIPPED, OrderStatus.CANCELLED},
    OrderStatus.SHIPPED: set(),
    OrderStatus.CANCELLED: set(),
}


class InvalidTransition(Exception):
    pass


@dataclass
class Order:
    order_id: str
    customer: str
    skus: list = field(default_factory=list)
    status: OrderStatus = OrderStatus.PENDING

    def move_to(self, target: OrderStatus) -> None:
        if target not in ALLOWED[self.status]:
            raise InvalidTransition(f"order {self.order_id}: {self.status.value} -> {target.value} is not allowed")
        self.status = target
