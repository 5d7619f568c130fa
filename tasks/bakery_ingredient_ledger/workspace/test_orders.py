import threading

from ledger import IngredientLedger
from orders import OrderDesk, run_concurrently
from production import bake_sheet, mill_order

STOCK = {"flour": 5_000, "water": 10_000, "salt": 500, "butter": 1_000, "milk": 1_000, "sugar": 500, "egg": 600,
         "rye": 2_000}


class MeetingPoint:
    """Low-stock alert handler that waits (briefly) for the other desk to reach it too."""

    def __init__(self, parties):
        self.barrier = threading.Barrier(parties, timeout=0.5)
        self.alerts = []

    def __call__(self, ingredient, left):
        self.alerts.append((ingredient, left))
        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            pass


def test_single_order_takes_ingredients():
    ledger = IngredientLedger(STOCK)
    order = OrderDesk("shop", ledger).place("ava", [("SOUR", 2), ("CROI", 10)])
    assert order.status == "accepted" and order.total_cents() == 3100
    assert ledger.available("flour") == 5_000 - 1_000 - 600


def test_refused_order_takes_nothing():
    ledger = IngredientLedger(STOCK)
    order = OrderDesk("shop", ledger).place("bo", [("RYE", 5), ("SOUR", 1)])
    assert order.status == "refused" and "rye" in order.reason
    assert ledger.snapshot() == dict(sorted(STOCK.items()))


def test_cancel_returns_stock():
    ledger = IngredientLedger(STOCK)
    desk = OrderDesk("phone", ledger)
    order = desk.place("cy", [("BRIO", 12)])
    desk.cancel(order)
    assert ledger.snapshot() == dict(sorted(STOCK.items()))
    ledger.low_water = {"egg": 1_000, "milk": 900}
    assert ledger.restock({"egg": 300}) == ["egg"]
    assert ledger.available("egg") == 900


def test_two_desks_cannot_sell_the_same_flour():
    alert = MeetingPoint(parties=2)
    ledger = IngredientLedger(STOCK, low_water={"flour": 2_500}, on_low=alert)
    shop, portal = OrderDesk("shop", ledger), OrderDesk("portal", ledger)
    orders, stuck = run_concurrently([
        (shop, "cafe", [("SOUR", 6)]),
        (portal, "hotel", [("SOUR", 6)]),
    ])
    assert stuck == []
    assert sorted(o.status for o in orders) == ["accepted", "refused"]
    assert ledger.available("flour") == 2_000


def test_concurrent_orders_add_up():
    alert = MeetingPoint(parties=2)
    ledger = IngredientLedger(STOCK, low_water={"butter": 950}, on_low=alert)
    a, b = OrderDesk("shop", ledger), OrderDesk("phone", ledger)
    orders, stuck = run_concurrently([(a, "dee", [("CROI", 6)]), (b, "eli", [("BRIO", 8)])])
    assert stuck == [] and [o.status for o in orders] == ["accepted", "accepted"]
    # 6 x 35 g + 8 x 15 g of butter
    assert ledger.available("butter") == 1_000 - 210 - 120
    assert sorted(m for m in ledger.movements if m[0] == "butter") == [("butter", -210), ("butter", -120)]


def test_bake_sheet_and_mill_order():
    ledger = IngredientLedger(STOCK)
    desk = OrderDesk("shop", ledger)
    orders = [desk.place("fay", [("CROI", 20), ("SOUR", 3)]), desk.place("gil", [("CROI", 5), ("RYE", 1)])]
    assert bake_sheet(orders) == ["croissant: 3 batches (36 units)", "rye loaf: 1 batch (6 units)", "sourdough loaf: 1 batch (8 units)"]
    assert bake_sheet([]) == ["nothing to bake"]
    assert mill_order(ledger, orders, {"flour": 20_000, "rye": 5_000}) == {"flour": 1, "rye": 1}
