import pytest

from dashboard import Dashboard
from feed import PriceFeed


def test_ticker_shows_recent_prices():
    feed = PriceFeed()
    board = Dashboard(feed)
    board.open_ticker("main", "ACME")
    for price in range(1, 8):
        feed.publish("ACME", price)
    assert [p for _, p in board.widget("main").points] == [3, 4, 5, 6, 7]


def test_two_tickers_on_one_symbol_both_update():
    feed = PriceFeed()
    board = Dashboard(feed)
    board.open_ticker("left", "ACME")
    board.open_ticker("right", "ACME")
    feed.publish("ACME", 10)
    assert board.widget("left").points == board.widget("right").points == [("ACME", 10)]


def test_prices_keep_flowing_after_a_ticker_is_closed():
    feed = PriceFeed()
    board = Dashboard(feed)
    board.open_ticker("left", "ACME")
    board.open_ticker("right", "ACME")
    board.close_ticker("left")
    feed.publish("ACME", 11)
    assert board.widget("right").points == [("ACME", 11)]


def test_retargeted_ticker_shows_only_new_symbol():
    feed = PriceFeed()
    board = Dashboard(feed)
    board.open_ticker("main", "ACME")
    board.retarget("main", "GLOBEX")
    feed.publish("ACME", 10)
    feed.publish("GLOBEX", 20)
    assert board.widget("main").points == [("GLOBEX", 20)]


def test_feed_rejects_non_callable_subscriber():
    with pytest.raises(TypeError, match="ACME"):
        PriceFeed().subscribe("ACME", "not a function")
