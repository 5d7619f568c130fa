import pytest

from replenishment import Rule, report
from reservations import ReservationBook, ReservationError
from stock import Stock, StockError
from storefront import OutOfStock, badge, checkout


def shop():
    stock = Stock({"LAMP": 10, "SHADE": 4, "BULB": 50})
    return stock, ReservationBook(stock)


def test_checkout_holds_stock():
    stock, book = shop()
    checkout(book, "o1", {"LAMP": 2, "BULB": 4}, now=0)
    assert stock.available("LAMP") == 8
    assert badge(stock, "SHADE") == "in stock"


def test_failed_checkout_holds_nothing():
    stock, book = shop()
    with pytest.raises(OutOfStock):
        checkout(book, "o1", {"LAMP": 1, "SHADE": 5}, now=0)
    assert stock.levels()["LAMP"] == (10, 0)


def test_cancel_and_expiry_return_stock():
    stock, book = shop()
    checkout(book, "o1", {"SHADE": 2}, now=0)
    checkout(book, "o2", {"SHADE": 2}, now=10)
    assert badge(stock, "SHADE") == "sold out"
    book.cancel("o1")
    assert book.expire(now=45) == ["o2"]
    assert stock.available("SHADE") == 4
    with pytest.raises(ReservationError):
        book.cancel("o2")


def test_shipping_leaves_the_rest_available():
    stock, book = shop()
    checkout(book, "o1", {"LAMP": 3}, now=0)
    book.fulfil("o1")
    assert stock.available("LAMP") == 7
    assert badge(stock, "LAMP") == "in stock"


def test_shipped_orders_do_not_block_new_ones():
    stock, book = shop()
    checkout(book, "o1", {"SHADE": 3}, now=0)
    book.fulfil("o1")
    checkout(book, "o2", {"SHADE": 1}, now=5)
    assert stock.levels()["SHADE"] == (1, 1)


def test_replenishment_counts_shipped_units_once():
    stock, book = shop()
    checkout(book, "o1", {"LAMP": 6}, now=0)
    book.fulfil("o1")
    assert report(stock, [Rule("LAMP", 4, 12), Rule("BULB", 10, 60)]) == [("LAMP", 4, 8)]


def test_stock_rules():
    stock = Stock({"A": 1})
    with pytest.raises(StockError):
        stock.hold("A", 2)
    with pytest.raises(StockError):
        stock.receive("A", 0)
    stock.receive("B", 5)
    assert stock.levels() == {"A": (1, 0), "B": (5, 0)}


def test_returns_restock_good_units():
    from returns import ReturnDesk, ReturnError

    stock, book = shop()
    checkout(book, "o1", {"BULB": 10}, now=0)
    book.fulfil("o1")
    desk = ReturnDesk(book)
    assert desk.accept("o1", "BULB", 4, damaged=1) == 3
    assert desk.written_off == {"BULB": 1}
    assert stock.levels()["BULB"][0] == 43
    with pytest.raises(ReturnError):
        desk.accept("o1", "BULB", 7)


def test_stocktake_variances_and_refusals():
    from stocktake import apply_count, variances

    stock, book = shop()
    checkout(book, "o1", {"SHADE": 3}, now=0)
    assert variances(stock, {"LAMP": 9, "SHADE": 4}) == {"LAMP": (10, 9, -1)}
    assert apply_count(stock, {"LAMP": 9, "SHADE": 2}) == {"SHADE": "counted 2 but 3 reserved"}
    assert stock.levels()["LAMP"] == (9, 0)
