"""Order records flowing through the fulfilment pipeline."""
import enum
from dataclasses import dataclass, field


class Priority(enum.IntEnum):
    """Lower values are served first."""

    EXPRESS = 1
    STANDARD = 5
    BULK = 9


@dataclass(frozen=True)
class Order:
    order_id: str
    sku: str
    quantity: int
    priority: Priority = Priority.STANDARD
    tags: tuple = field(default=())

    def __post_init__(self):
        if not self.order_id:
            raise ValueError("order_id must not be empty")
        if self.quantity <= 0:
            raise ValueError(f"order {self.order_id}: quantity must be positive, got {self.quantity}")
        if not isinstance(self.priority, Priority):
            raise ValueError(f"order {self.order_id}: unknown priority {self.priority!r}")
