import json

import pytest

from fulfillment import FulfillmentDesk
from order_repository import OrderRepository
from orders import InvalidTransition


def open_desk(tmp_path):
    return FulfillmentDesk(OrderRepository(tmp_path / "orders.json"))


def seed(desk):
    desk.place("A-100", "lena", ["mug", "tea"])
    desk.place("A-101", "karl", ["kettle"])
    desk.place("A-102", "ines", ["filter"])
    desk.pay("A-100")
    desk.pay("A-101")
    desk.cancel("A-102")


def test_pick_list_holds_paid_orders(tmp_path):
    desk = open_desk(tmp_path)
    seed(desk)
    assert desk.pick_list() == ["kettle", "mug", "tea"]


def test_shipping_clears_the_pick_list(tmp_path):
    desk = open_desk(tmp_path)
    seed(desk)
    assert sorted(desk.ship_all_paid()) == ["A-100", "A-101"]
    assert desk.pick_list() == []


def test_cannot_pay_a_cancelled_order(tmp_path):
    desk = open_desk(tmp_path)
    seed(desk)
    with pytest.raises(InvalidTransition):
        desk.pay("A-102")


def test_legacy_export_without_status_loads_as_pending(tmp_path):
    (tmp_path / "orders.json").write_text(json.dumps({"L-1": {"customer": "old", "skus": ["mug"]}}))
    desk = open_desk(tmp_path)
    desk.pay("L-1")
    assert desk.pick_list() == ["mug"]


def test_pick_list_survives_restart(tmp_path):
    seed(open_desk(tmp_path))
    assert open_desk(tmp_path).pick_list() == ["kettle", "mug", "tea"]


def test_cancelled_order_stays_cancelled_after_restart(tmp_path):
    seed(open_desk(tmp_path))
    desk = open_desk(tmp_path)
    with pytest.raises(InvalidTransition):
        desk.pay("A-102")
