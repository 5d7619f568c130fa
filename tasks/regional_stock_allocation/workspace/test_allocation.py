import pytest

from allocator import Allocator
from warehouse import InsufficientStock, Warehouse


def test_ship_takes_stock_off_the_shelf():
    wh = Warehouse("north", {"widget": 10})
    wh.reserve("widget", 3, "o-100")
    wh.ship("widget", 3, "o-100")
    assert wh.on_hand["widget"] == 7
    assert wh.available("widget") == 7


def test_reserving_more_than_available_is_refused():
    wh = Warehouse("north", {"widget": 10})
    with pytest.raises(InsufficientStock):
        wh.reserve("widget", 11, "o-101")
    assert wh.available("widget") == 10


def test_cancel_releases_the_whole_order():
    east, west = Warehouse("east", {"widget": 5}), Warehouse("west", {"widget": 10})
    alloc = Allocator([east, west])
    plan = alloc.allocate("o-102", {"widget": 7})
    alloc.cancel("o-102", plan)
    assert (east.available("widget"), west.available("widget")) == (5, 10)


def test_unfillable_order_holds_no_stock():
    east, west = Warehouse("east", {"widget": 5}), Warehouse("west", {"widget": 10})
    with pytest.raises(InsufficientStock):
        Allocator([east, west]).allocate("o-103", {"widget": 20})
    assert (east.available("widget"), west.available("widget")) == (5, 10)


def test_split_order_leaves_the_rest_at_the_second_warehouse():
    east, west = Warehouse("east", {"widget": 5, "bolt": 40}), Warehouse("west", {"widget": 10, "bolt": 40})
    plan = Allocator([east, west]).allocate("o-104", {"widget": 7, "bolt": 30})
    assert plan == {"east": {"widget": 5, "bolt": 30}, "west": {"widget": 2}}
    assert west.available("widget") == 8, f"west shows {west.available('widget')} widgets available"
    assert west.available("bolt") == 40, f"west shows {west.available('bolt')} bolts available"


def test_each_warehouse_history_lists_its_own_movements():
    east, west = Warehouse("east", {"gear": 1}), Warehouse("west", {"gear": 4})
    Allocator([east, west]).allocate("o-105", {"gear": 3})
    history = [(m.sku, m.delta, m.reason) for m in west.ledger.for_order("o-105")]
    assert history == [("gear", -2, "reserve")], f"west history for o-105: {history}"
