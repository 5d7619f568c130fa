import threading
from decimal import Decimal

import pytest

from catalog import Catalog, UnknownSku
from sales_ledger import SalesLedger
from store import Store


def test_sale_is_priced_from_catalog():
    store = Store()
    store.stock_product("MUG-1", "Mug", "7.50")
    sale = store.sell("MUG-1", 2)
    assert sale.total == Decimal("15.00")
    assert store.ledger.revenue() == Decimal("15.00")


def test_unknown_sku_cannot_be_sold():
    store = Store()
    with pytest.raises(UnknownSku):
        store.sell("NOPE")
    assert store.ledger.skus() == []


def test_rebrand_moves_past_sales_to_new_sku():
    store = Store()
    store.stock_product("MUG-1", "Mug", "7.50")
    store.sell("MUG-1")
    store.rebrand("MUG-1", "MUG-2")
    assert store.ledger.skus() == ["MUG-2"]
    assert store.sell("MUG-2").unit_price == Decimal("7.50")


def test_rebrand_and_sale_at_the_same_time_both_finish():
    # Both operations reach their first audit/notification point before either goes on.
    meeting = threading.Barrier(2, timeout=1)

    def rendezvous():
        try:
            meeting.wait()
        except threading.BrokenBarrierError:
            pass  # the other side could not get there; carry on alone

    catalog = Catalog()
    catalog.on_rename(lambda old, new: rendezvous())
    ledger = SalesLedger(catalog, audit=lambda event, detail: rendezvous() if event == "sale" else None)
    catalog.add("MUG-1", "Mug", "7.50")
    catalog.add("CAP-1", "Cap", "12.00")

    errors = []

    def run(fn, *args):
        try:
            fn(*args)
        except Exception as exc:
            errors.append(exc)

    seller = threading.Thread(target=run, args=(ledger.record_sale, "CAP-1", 1), daemon=True)
    rebrander = threading.Thread(target=run, args=(catalog.rename_sku, "MUG-1", "MUG-9"), daemon=True)
    seller.start()
    rebrander.start()
    seller.join(3)
    rebrander.join(0.5)
    assert not seller.is_alive() and not rebrander.is_alive(), "record_sale() and rename_sku() never returned"
    assert errors == []
    assert ledger.skus() == ["CAP-1"]


def test_daily_summary_ranks_top_sellers():
    from sales_report import summary_lines

    store = Store()
    store.stock_product("MUG-1", "Mug", "7.50")
    store.stock_product("CAP-1", "Cap", "12.00")
    store.stock_product("PIN-1", "Pin", "1.00")
    store.sell("MUG-1", 4)
    store.sell("CAP-1", 1)
    store.sell("PIN-1", 18)
    assert summary_lines(store.ledger) == [
        "Revenue: 60.00 EUR",
        "1. MUG-1: 30.00 EUR (50%)",
        "2. PIN-1: 18.00 EUR (30%)",
        "3. CAP-1: 12.00 EUR (20%)",
    ]
