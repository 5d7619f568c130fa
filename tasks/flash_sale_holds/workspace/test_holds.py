import threading

import pytest

from holds import HoldDesk, HoldExpired
from order_book import OrderBook
from stock import SaleStock, SoldOut


@pytest.fixture
def shop():
    stock = SaleStock({"sneakers": 1, "hoodie": 3})
    orders = OrderBook()
    return stock, orders, HoldDesk(stock, orders, ttl_seconds=30)


def expired_hold(desk, item, shopper):
    """Place a hold with a tiny TTL and wait until its expiry has run."""
    gone = threading.Event()
    desk.on_expiry(lambda hold: gone.set())
    hold = desk.place_hold(item, shopper, ttl=0.01)
    assert gone.wait(2), "hold did not expire"
    return hold


def test_checkout_within_ttl_sells_the_unit(shop):
    stock, orders, desk = shop
    hold = desk.place_hold("hoodie", "ana")
    desk.checkout(hold)
    assert [p.shopper for p in orders.purchases("hoodie")] == ["ana"]
    assert stock.available("hoodie") == 2
    assert desk.active_holds() == []


def test_hold_on_sold_out_item_is_refused(shop):
    stock, orders, desk = shop
    hold = desk.place_hold("sneakers", "ana")
    with pytest.raises(SoldOut):
        desk.place_hold("sneakers", "ben")
    desk.abandon(hold)
    assert stock.available("sneakers") == 1


def test_expired_hold_returns_unit(shop):
    stock, orders, desk = shop
    expired_hold(desk, "sneakers", "ana")
    assert stock.available("sneakers") == 1
    assert desk.active_holds() == []


def test_expired_hold_cannot_be_checked_out(shop):
    stock, orders, desk = shop
    hold = expired_hold(desk, "hoodie", "ana")
    with pytest.raises(HoldExpired):
        desk.checkout(hold)
    assert orders.purchases() == []
    assert stock.available("hoodie") == 3


def test_last_unit_is_sold_only_once(shop):
    stock, orders, desk = shop
    late = expired_hold(desk, "sneakers", "ana")
    ben = desk.place_hold("sneakers", "ben")
    try:
        desk.checkout(late)
    except HoldExpired:
        pass
    desk.checkout(ben)
    buyers = [p.shopper for p in orders.purchases("sneakers")]
    assert buyers == ["ben"], f"1 pair of sneakers sold to {buyers}"


def test_abandoning_expired_hold_does_not_add_stock(shop):
    stock, orders, desk = shop
    hold = expired_hold(desk, "sneakers", "ana")
    desk.abandon(hold)
    assert stock.available("sneakers") == 1, f"{stock.available('sneakers')} pairs on sale, 1 in the warehouse"
