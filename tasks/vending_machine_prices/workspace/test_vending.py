from decimal import Decimal

import pytest

import pricing
from fleet import Operator
from machine import VendError, make_change
from pricing import round_to_coin

STOCK = {"A1": 5, "A2": 5, "B1": 1, "B2": 3}


@pytest.fixture(autouse=True)
def clean_prices():
    pricing.reset()
    yield
    pricing.reset()


def coins(*values):
    return [Decimal(v) for v in values]


def test_rounding_and_change():
    assert round_to_coin(Decimal("1.6555")) == Decimal("1.65")
    assert make_change(Decimal("0.85")) == coins("0.50", "0.20", "0.10", "0.05")


def test_regional_prices():
    op = Operator()
    op.install("M1", "city", STOCK)
    op.install("M2", "airport", STOCK)
    assert op.price_board("A2") == {"M1": "2.05", "M2": "2.50"}
    assert op.machines["M1"].price("B2") == Decimal("0.90")


def test_vend_and_sold_out():
    op = Operator()
    m = op.install("M1", "campus", STOCK)
    assert m.vend("B1", coins("2.00")) == coins("0.50", "0.20", "0.10", "0.05")
    with pytest.raises(VendError):
        m.vend("B1", coins("2.00"))
    assert op.restock_list() == [("M1", "B1", 2)]


def test_promotion_changes_the_price():
    op = Operator()
    m = op.install("M1", "city", STOCK)
    assert m.price("A2") == Decimal("2.05")
    op.promote("M1", "A2", "1.00")
    assert m.price("A2") == Decimal("1.00")
    assert m.vend("A2", coins("1.00")) == []


def test_promotion_ends():
    op = Operator()
    op.install("M1", "city", STOCK)
    op.promote("M1", "A1", "0.50")
    assert op.price_board("A1") == {"M1": "0.50"}
    op.end_promotion("M1", "A1")
    assert op.price_board("A1") == {"M1": "1.65"}


def test_promotion_is_per_machine_and_reported():
    op = Operator()
    op.install("M1", "city", STOCK)
    op.install("M2", "city", STOCK)
    op.price_board("B1")
    op.promote("M2", "B1", "0.60")
    assert op.price_board("B1") == {"M1": "1.40", "M2": "0.60"}
    op.machines["M2"].vend("B1", coins("0.50", "0.10"))
    assert op.daily_report() == {"machines": 2, "sales": 1, "takings": "0.60", "promotions": {"M2": {"B1": "0.60"}}}


def test_price_audit_after_promotions():
    from audit import best_sellers, price_audit, reconcile

    op = Operator()
    for mid in ("M1", "M2", "M3"):
        op.install(mid, "city", STOCK)
    assert price_audit(op, "A1") == []
    op.promote("M3", "A1", "1.00")
    assert price_audit(op, "A1") == ["M3"]
    op.machines["M3"].vend("A1", coins("1.00"))
    assert reconcile(op.machines["M3"], "1.00")["status"] == "ok"
    assert best_sellers(op) == [("A1", 1)]


def test_new_product_and_refill():
    from catalog import add_product, remove_product

    add_product("D9", "Soup", "2.00")
    try:
        op = Operator()
        m = op.install("M1", "campus", {})
        assert m.refill("D9", 2) == 2
        assert m.menu() == [("D9", "Soup", "2.30")]
    finally:
        remove_product("D9")


def test_price_explanation():
    op = Operator()
    op.install("M1", "airport", STOCK)
    assert pricing.explain("M1", "airport", "B2") == "base 0.80, x1.40 (airport), = 1.10"
