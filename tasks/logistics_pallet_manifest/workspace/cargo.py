"""Stock-keeping units that travel on pallets: weight, declared value and tariff code."""
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Sku:
    code: str
    description: str
    unit_kg: Decimal
    unit_value: Decimal
    hs_code: str
    hazmat_class: str = None

    def __post_init__(self):
        if self.unit_kg <= 0:
            raise ValueError(f"{self.code}: unit weight must be positive")
        if len(self.hs_code.replace(".", "")) not in (6, 8, 10):
            raise ValueError(f"{self.code}: HS code {self.hs_code!r} must have 6, 8 or 10 digits")


class SkuCatalog:
    def __init__(self, skus=()):
        self._skus = {}
        for sku in skus:
            self.add(sku)

    def add(self, sku):
        self._skus[sku.code] = sku

    def __getitem__(self, code):
        try:
            return self._skus[code]
        except KeyError:
            raise KeyError(f"unknown SKU {code}") from None

    def __contains__(self, code):
        return code in self._skus
