"""Stock levels of one warehouse and the reorder rules that read them."""
from dataclasses import dataclass, field

UNITS = ("each", "kg")


@dataclass
class StockItem:
    sku: str
    quantity: float
    unit: str
    aisle: str
    rack: int
    shelf: int

    def __post_init__(self):
        if self.unit not in UNITS:
            raise ValueError(f"{self.sku}: unknown unit {self.unit!r}")
        if self.quantity < 0:
            raise ValueError(f"{self.sku}: negative stock {self.quantity}")


@dataclass
class Snapshot:
    warehouse: str
    items: list = field(default_factory=list)

    def item(self, sku: str) -> StockItem:
        for it in self.items:
            if it.sku == sku:
                return it
        raise KeyError(sku)


def reorder_list(snapshot: Snapshot, minimums: dict) -> list:
    """SKUs whose stock is below the minimum, given as ``{sku: (quantity, unit)}``."""
    low = []
    for sku, (minimum, unit) in sorted(minimums.items()):
        it = snapshot.item(sku)
        if it.unit != unit:
            raise ValueError(f"{sku}: minimum is in {unit}, stock is counted in {it.unit}")
        if it.quantity < minimum:
            low.append(sku)
    return low
