from datetime import date
from decimal import Decimal

import pytest

from market_data import MissingPrice, PriceFeed
from portfolio import Portfolio, Trade, TradeRejected
from statements import accounts_to_rebalance, intraday_values, trade_impact

D = Decimal
FRI = date(2024, 5, 3)

FEED = PriceFeed({("ACME", FRI): D("60"), ("INIT", FRI): D("12.50")})


def test_value_is_cash_plus_positions_at_the_close():
    p = Portfolio("acct-1", {"ACME": 10, "INIT": 4}, D("100"))
    assert p.market_value(FEED, FRI) == D("750")  # 100 + 10*60 + 4*12.50


def test_missing_close_is_reported():
    p = Portfolio("acct-2", {"GLOBX": 1}, D("0"))
    with pytest.raises(MissingPrice, match="GLOBX"):
        p.market_value(FEED, FRI)


def test_overselling_is_rejected():
    with pytest.raises(TradeRejected):
        Portfolio("acct-3", {"ACME": 2}, D("0")).apply(Trade("ACME", -3, D("60")))


def test_cash_heavy_accounts_are_flagged():
    heavy = Portfolio("acct-4", {"ACME": 1}, D("940"))
    invested = Portfolio("acct-5", {"ACME": 15}, D("100"))
    assert accounts_to_rebalance([heavy, invested], FEED, FRI, D("0.5")) == {"acct-4"}


def test_buy_below_the_close_adds_value():
    before = Portfolio("acct-6", {}, D("1000"))
    after = before.apply(Trade("ACME", 10, D("50")))  # bought at 50, closed at 60
    assert after.cash == D("500")
    impact = trade_impact(before, after, FEED, FRI)
    assert impact == D("100"), f"trade impact at close: {impact}"


def test_activity_table_values_each_snapshot():
    open_ = Portfolio("acct-7", {"INIT": 8}, D("200"))
    sold = open_.apply(Trade("INIT", -8, D("15")))
    bought = sold.apply(Trade("ACME", 5, D("62")))
    values = intraday_values([open_, sold, bought], FEED, FRI)
    # 200 + 8*12.50 = 300; sold at 15: 320 cash; bought 5 ACME at 62: 10 cash + 5*60 = 310
    assert values == [D("300"), D("320"), D("310")], f"activity table: {values}"
