"""End-of-day figures for client statements and the rebalancing desk."""
from datetime import date
from decimal import Decimal

from market_data import PriceFeed
from portfolio import Portfolio


def trade_impact(before: Portfolio, after: Portfolio, feed: PriceFeed, day: date) -> Decimal:
    """How much a trade changed the account's value at the day's close."""
    return after.market_value(feed, day) - before.market_value(feed, day)


def intraday_values(snapshots: list[Portfolio], feed: PriceFeed, day: date) -> list[Decimal]:
    """Each intraday snapshot valued at the close, for the statement's activity table."""
    return [p.market_value(feed, day) for p in snapshots]


def accounts_to_rebalance(portfolios: list[Portfolio], feed: PriceFeed, day: date, max_cash_share: Decimal) -> set[str]:
    flagged: set[Portfolio] = set()
    for p in portfolios:
        value = p.market_value(feed, day)
        if value > 0 and p.cash / value > max_cash_share:
            flagged.add(p)
    return {p.account_id for p in flagged}
