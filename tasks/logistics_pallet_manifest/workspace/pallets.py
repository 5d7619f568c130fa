"""Pallets: a base of known tare weight with quantities of SKUs stacked on it."""
from dataclasses import dataclass, field
from decimal import Decimal

TARE_KG = {"EUR": Decimal("25"), "US": Decimal("22"), "HALF": Decimal("10")}
MAX_GROSS_KG = {"EUR": Decimal("1000"), "US": Decimal("1100"), "HALF": Decimal("400")}


@dataclass
class Pallet:
    pallet_id: str
    base: str = "EUR"
    items: dict = field(default_factory=dict)
    sealed: bool = False

    def __post_init__(self):
        if self.base not in TARE_KG:
            raise ValueError(f"pallet {self.pallet_id}: unknown base {self.base!r}")

    def load(self, sku_code, quantity):
        if self.sealed:
            raise PermissionError(f"pallet {self.pallet_id} is sealed")
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        self.items[sku_code] = self.items.get(sku_code, 0) + quantity

    def unload(self, sku_code, quantity):
        have = self.items.get(sku_code, 0)
        if quantity > have:
            raise ValueError(f"pallet {self.pallet_id}: only {have} of {sku_code}")
        if quantity == have:
            del self.items[sku_code]
        else:
            self.items[sku_code] = have - quantity

    def net_kg(self, catalog):
        return sum((catalog[c].unit_kg * q for c, q in self.items.items()), Decimal(0))

    def gross_kg(self, catalog):
        return TARE_KG[self.base] + self.net_kg(catalog)

    def value(self, catalog):
        return sum((catalog[c].unit_value * q for c, q in self.items.items()), Decimal(0))

    def hazmat(self, catalog):
        return sorted({catalog[c].hazmat_class for c in self.items if catalog[c].hazmat_class})

    def overweight(self, catalog):
        return self.gross_kg(catalog) > MAX_GROSS_KG[self.base]
