"""Wires the catalog and the ledger together for the shop front end."""
from catalog import Catalog
from sales_ledger import SalesLedger


class Store:
    def __init__(self, audit=None):
        self.catalog = Catalog()
        self.ledger = SalesLedger(self.catalog, audit=audit)

    def stock_product(self, sku, name, price):
        self.catalog.add(sku, name, price)

    def sell(self, sku, quantity=1):
        return self.ledger.record_sale(sku, quantity)

    def rebrand(self, old_sku, new_sku):
        self.catalog.rename_sku(old_sku, new_sku)
