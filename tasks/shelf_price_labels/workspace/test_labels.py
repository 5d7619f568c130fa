import gc

from alerts import LowStockAlerts
from catalog import Catalog, Product
from labels import ShelfLabelBoard
from pricing import Markdown, PriceBook
from vendor.eventhub import Hub, TopicPattern


def make_store():
    hub = Hub()
    catalog = Catalog(hub, "s12")
    catalog.add(Product("A-100", "Oat milk 1l", "dairy", 329, stock=10, unit="l"))
    catalog.add(Product("B-200", "Rye bread", "bakery", 450, stock=4))
    return hub, catalog


def test_library_patterns_and_weak_subscribers():
    assert TopicPattern("catalog.*.price").matches("catalog.s1.price")
    assert TopicPattern("catalog.#").matches("catalog.s1.stock")
    assert not TopicPattern("catalog.*").matches("catalog.s1.price")
    hub, got = Hub(), []

    class Listener:
        def on(self, event):
            got.append(event.get("n"))

    listener = Listener()
    hub.subscribe("t", listener.on)
    hub.publish("t", n=1)
    del listener
    gc.collect()
    hub.publish("t", n=2)
    assert got == [1] and hub.subscriber_count() == 0


def test_labels_start_from_the_catalog():
    hub, catalog = make_store()
    board = ShelfLabelBoard(hub, catalog, PriceBook([Markdown("bakery", 20)]), sizes={"A-100": 1000})
    assert board.render("A-100") == "Oat milk 1l | $3.29 | $3.29/l"
    assert board.render("B-200") == "Rye bread | $3.60"


def test_price_change_reaches_the_label():
    hub, catalog = make_store()
    board = ShelfLabelBoard(hub, catalog, sizes={"A-100": 1000})
    catalog.set_price("A-100", 299)
    assert board.render("A-100") == "Oat milk 1l | $2.99 | $2.99/l"
    assert board.labels["A-100"].updates == 2


def test_markdown_applies_to_new_price():
    hub, catalog = make_store()
    board = ShelfLabelBoard(hub, catalog, PriceBook([Markdown("bakery", 25)]))
    catalog.set_price("B-200", 500)
    assert board.labels["B-200"].price == "$3.75"


def test_low_stock_alerts_follow_sales():
    hub, catalog = make_store()
    alerts = LowStockAlerts(hub, "s12", threshold=3)
    catalog.sell("B-200", 2)
    catalog.sell("A-100", 1)
    assert alerts.pending == ["B-200"]
    catalog.restock("B-200", 6)
    assert alerts.pending == [] and alerts.cleared == ["B-200"]


def test_closed_board_and_alerts_stop_listening():
    hub, catalog = make_store()
    board = ShelfLabelBoard(hub, catalog)
    alerts = LowStockAlerts(hub, "s12")
    del board, alerts
    gc.collect()
    catalog.set_price("A-100", 310)
    catalog.sell("B-200", 1)
    assert hub.subscriber_count() == 0
    assert hub.errors == []
