"""The store's catalog; every change is published on the hub for the shelf systems."""
from dataclasses import dataclass


class UnknownSku(KeyError):
    pass


@dataclass
class Product:
    sku: str
    name: str
    category: str
    price_cents: int
    stock: int = 0
    unit: str = "each"


class Catalog:
    def __init__(self, hub, store_id):
        self.hub = hub
        self.store_id = store_id
        self._products = {}

    def add(self, product):
        self._products[product.sku] = product
        self.hub.publish(f"catalog.{self.store_id}.price", sku=product.sku, price_cents=product.price_cents)
        return product

    def get(self, sku):
        try:
            return self._products[sku]
        except KeyError:
            raise UnknownSku(sku) from None

    def set_price(self, sku, price_cents):
        if price_cents <= 0:
            raise ValueError(f"{sku}: price must be positive, got {price_cents}")
        product = self.get(sku)
        product.price_cents = price_cents
        self.hub.publish(f"catalog.{self.store_id}.price", sku=sku, price_cents=price_cents)

    def sell(self, sku, quantity=1):
        product = self.get(sku)
        if quantity > product.stock:
            raise ValueError(f"{sku}: only {product.stock} in stock")
        product.stock -= quantity
        self.hub.publish(f"catalog.{self.store_id}.stock", sku=sku, stock=product.stock)

    def restock(self, sku, quantity):
        product = self.get(sku)
        product.stock += quantity
        self.hub.publish(f"catalog.{self.store_id}.stock", sku=sku, stock=product.stock)

    def skus(self):
        return sorted(self._products)
