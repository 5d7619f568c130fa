from collections import Counter
from decimal import Decimal

from catalog import product
from pricing import shelf_price

COINS = (Decimal("2.00"), Decimal("1.00"), Decimal("0.50"), Decimal("0.20"), Decimal("0.10"), Decimal("0.05"))


class VendError(RuntimeError):
    pass


class Machine:
    def __init__(self, machine_id, region, stock):
        self.machine_id = machine_id
        self.region = region
        self.stock = dict(stock)
        self.cash = Counter()
        self.sales = []

    def price(self, code):
        return shelf_price(self.machine_id, self.region, code)

    def menu(self):
        return [(code, product(code).name, str(self.price(code))) for code in sorted(self.stock) if self.stock[code] > 0]

    def vend(self, code, inserted):
        if self.stock.get(code, 0) <= 0:
            raise VendError(f"{code} sold out")
        paid = sum(inserted, Decimal(0))
        price = self.price(code)
        if paid < price:
            raise VendError(f"insert {price - paid} more")
        change = make_change(paid - price)
        self.stock[code] -= 1
        for coin in inserted:
            self.cash[coin] += 1
        self.sales.append((code, price))
        return change

    def takings(self):
        return sum((price for _, price in self.sales), Decimal(0))

    def refill(self, code, count):
        product(code)
        if count <= 0:
            raise VendError("refill count must be positive")
        self.stock[code] = self.stock.get(code, 0) + count
        return self.stock[code]


def make_change(amount):
    out = []
    for coin in COINS:
        while amount >= coin:
            out.append(coin)
            amount -= coin
    if amount:
        raise VendError(f"cannot make change for {amount}")
    return out
