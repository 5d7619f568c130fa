import threading

from candles import CandleBuilder
from desks import MovingAverage, Portfolio, PriceAlert, desk_report
from risk import ExposureMonitor
from fanout import TickerHub
from quotes import parse_feed, parse_line
from replay import closing_lines, replay, vwap

SESSION = """
ACME 101.50 300 1
BOLT 20.05 1000 2
ACME 102.00 200 3
ACME 99.90 500 4
BOLT 19.80 800 5
"""


def test_parse_line_in_cents():
    assert parse_line("acme 101.5 10 7").price_cents == 10150
    assert parse_line("BOLT 20 1 8").price_cents == 2000


def test_subscribers_get_their_symbols():
    hub = TickerHub()
    ma = MovingAverage(window=2)
    alert = PriceAlert("ACME", above_cents=10200, below_cents=10000)
    hub.subscribe("*", ma)
    hub.subscribe("ACME", alert)
    result = replay(hub, SESSION)
    assert result == {"quotes": 5, "deliveries": 8, "errors": []}
    assert ma.value("ACME") == 10095 and ma.value("BOLT") == 1992
    assert alert.fired == [("above", 3), ("below", 4)]


def test_portfolio_value():
    hub = TickerHub()
    book = Portfolio({"ACME": 10, "BOLT": 100, "CRUX": 5})
    hub.subscribe("*", book)
    replay(hub, SESSION)
    assert book.value_cents() == 10 * 9990 + 100 * 1980
    assert book.unpriced() == ["CRUX"]
    assert desk_report(book, MovingAverage(3))[2] == "CRUX: 5 @ - (avg -)"
    assert vwap(SESSION, "ACME") == 10080
    assert closing_lines(SESSION) == [
        "ACME  low 99.90 high 102.00 last 99.90 vol 1000",
        "BOLT  low 19.80 high 20.05 last 19.80 vol 1800",
    ]


def test_desk_leaving_while_a_quote_is_published():
    hub = TickerHub()
    book = Portfolio({"ACME": 1})
    left = threading.Event()

    def desk_logs_off():
        hub.unsubscribe(leaving_desk)
        left.set()

    def first_subscriber(quote):
        threading.Thread(target=desk_logs_off, daemon=True).start()
        assert left.wait(2), "the other desk could not unsubscribe"

    hub.subscribe("ACME", first_subscriber)
    leaving_desk = hub.subscribe("ACME", lambda q: None)
    hub.subscribe("ACME", book)
    done = {}
    t = threading.Thread(target=lambda: done.setdefault("n", hub.publish(parse_line("ACME 50 1 1"))), daemon=True)
    t.start()
    t.join(2)
    assert not t.is_alive(), "publish never finished"
    assert "n" in done, "publish raised"
    assert book.last == {"ACME": 5000}
    assert hub.subscribers() == 2


def test_candles_and_exposure():
    hub = TickerHub()
    candles = CandleBuilder(size=2)
    monitor = ExposureMonitor({"ACME": 20, "BOLT": 50}, limit_cents=300_000)
    hub.subscribe("ACME", candles)
    hub.subscribe("*", monitor)
    replay(hub, SESSION)
    assert candles.bars("ACME") == [(10150, 10200, 10150, 10200, 500)]
    assert candles.open_bar("ACME") == (9990, 9990, 9990, 9990, 500)
    assert monitor.breaches == [2, 5]
    assert monitor.exposure_cents() == 20 * 9990 + 50 * 1980
