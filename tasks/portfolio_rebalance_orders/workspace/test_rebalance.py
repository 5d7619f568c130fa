from decimal import Decimal

import pytest

from drift import drift, needs_rebalance, out_of_band
from fees import commission
from holdings import PositionError, parse_positions, total_value
from lots import Lot, sell_fifo
from orders import Order, cash_after, rebalance_orders
from report import order_summary, sheet
from targets import ModelError, check, model

POSITIONS = """
VTI, 100, 250.00
VXUS, 200, 60.00
BND, 120, 72.00
VNQ, 40, 85.00
"""


def test_positions_and_models():
    holdings = parse_positions(POSITIONS)
    assert total_value(holdings, Decimal("960")) == Decimal("50000.00")
    with pytest.raises(PositionError):
        parse_positions("VTI,ten,250")
    assert sum(model("growth").values()) == 1
    with pytest.raises(ModelError):
        check({"VTI": Decimal("0.7"), "BND": Decimal("0.2")})


def test_commission_limits():
    assert commission(Decimal("100")) == Decimal("1.00")
    assert commission(Decimal("2000")) == Decimal("5.00")
    assert commission(Decimal("-50000")) == Decimal("25.00")


def test_drift_against_the_model():
    offs = drift(parse_positions(POSITIONS), model("balanced"), Decimal("960"))
    # VTI 25000 / 50000 = 0.50 against 0.40; BND 8640 / 50000 = 0.1728 against 0.30
    assert offs["VTI"] == Decimal("0.1"), f"VTI drift {offs['VTI']}"
    assert offs["BND"] == Decimal("-0.1272")


def test_symbols_outside_the_band_are_flagged():
    holdings = parse_positions(POSITIONS)
    assert out_of_band(holdings, model("balanced"), Decimal("960")) == ["BND", "VTI"]
    assert needs_rebalance(holdings, model("balanced"), Decimal("960"))
    close = {"VTI": Decimal("0.48"), "VXUS": Decimal("0.26"), "BND": Decimal("0.19"), "VNQ": Decimal("0.07")}
    assert not needs_rebalance(holdings, close, Decimal("960"))


def test_orders_never_spend_more_than_cash():
    holdings = parse_positions("VTI, 10, 250.00\nBND, 10, 72.00")
    orders, left = rebalance_orders(holdings, model("growth"), Decimal("700"), prices={"VXUS": Decimal("60.00")})
    assert left >= 0
    assert cash_after(orders, Decimal("700")) == left
    assert cash_after(orders, Decimal("700")) >= 0, f"orders {orders} overspend"


def test_sheet_lists_drift_and_orders():
    holdings = parse_positions("VTI, 10, 100.00\nBND, 10, 100.00")
    even = {"VTI": Decimal("0.5"), "BND": Decimal("0.5")}
    orders, left = rebalance_orders(holdings, even, Decimal("1000"))
    assert left == Decimal("498.75")
    assert sheet(holdings, even, orders, Decimal("1000")).splitlines() == [
        "symbol   drift  order",
        "BND     -16.7%  buy 5 @ 100.00",
        "VTI     -16.7%  -",
    ]
    assert order_summary(orders) == "0 sells, 1 buy, 500.00 traded"


def test_sells_consume_the_oldest_lots():
    from datetime import date

    lots = [
        Lot("VTI", 5, Decimal("200.00"), date(2024, 3, 1)),
        Lot("VTI", 5, Decimal("240.00"), date(2026, 6, 1)),
        Lot("BND", 10, Decimal("70.00"), date(2025, 1, 1)),
    ]
    gain, left = sell_fifo(lots, Order("VTI", "sell", 7, Decimal("250.00")), date(2026, 12, 1))
    assert (gain.long_term, gain.short_term, gain.total) == (Decimal("250.00"), Decimal("20.00"), Decimal("270.00"))
    assert [(l.symbol, l.units) for l in left] == [("BND", 10), ("VTI", 3)]
    with pytest.raises(ValueError):
        sell_fifo(left, Order("VTI", "sell", 4, Decimal("250.00")), date(2026, 12, 1))
