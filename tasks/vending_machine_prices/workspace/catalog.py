from dataclasses import dataclass
from decimal import Decimal


class CatalogError(KeyError):
    pass


@dataclass(frozen=True)
class Product:
    code: str
    name: str
    base_price: Decimal
    taxable: bool = True


PRODUCTS = {
    "A1": Product("A1", "Sparkling water", Decimal("1.20")),
    "A2": Product("A2", "Cola", Decimal("1.50")),
    "B1": Product("B1", "Crisps", Decimal("1.00")),
    "B2": Product("B2", "Apple", Decimal("0.80"), taxable=False),
    "C1": Product("C1", "Sandwich", Decimal("3.40")),
}

REGION_MULTIPLIER = {"city": Decimal("1.15"), "campus": Decimal("0.95"), "airport": Decimal("1.40")}
TAX_RATE = {"city": Decimal("0.20"), "campus": Decimal("0.20"), "airport": Decimal("0.20")}


def product(code):
    try:
        return PRODUCTS[code]
    except KeyError:
        raise CatalogError(f"unknown product {code}") from None


def add_product(code, name, base_price, taxable=True):
    if code in PRODUCTS:
        raise CatalogError(f"product {code} exists")
    price = Decimal(base_price)
    if price <= 0:
        raise ValueError("price must be positive")
    PRODUCTS[code] = Product(code, name, price, taxable)
    return PRODUCTS[code]


def remove_product(code):
    product(code)
    return PRODUCTS.pop(code)
