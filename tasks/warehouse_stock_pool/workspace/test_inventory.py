import pytest

from connection import Database
from inventory import OutOfStock, StockService
from pool import ConnectionPool, PoolExhausted


def make_service(max_size=4):
    db = Database()
    pool = ConnectionPool(db, max_size=max_size)
    return db, pool, StockService(pool)


def test_receive_then_reserve_updates_stock():
    _, _, stock = make_service()
    stock.receive("SKU-1", 10)
    stock.reserve("order-1", "SKU-1", 4)
    assert stock.on_hand("SKU-1") == 6
    assert stock.reservation("order-1") == ("SKU-1", 4)


def test_successful_transactions_reuse_one_connection():
    db, pool, stock = make_service()
    for _ in range(5):
        stock.receive("SKU-1", 1)
    assert stock.on_hand("SKU-1") == 5
    assert db.opened == 1
    assert pool.idle_count == 1


def test_failed_reservation_leaves_stock_untouched():
    _, _, stock = make_service()
    stock.receive("SKU-2", 3)
    with pytest.raises(OutOfStock):
        stock.reserve("order-9", "SKU-2", 5)
    assert stock.on_hand("SKU-2") == 3
    assert stock.reservation("order-9") is None


def test_connection_from_failed_transaction_is_not_handed_out_again():
    _, pool, stock = make_service()
    stock.receive("SKU-3", 1)
    with pytest.raises(OutOfStock):
        stock.reserve("order-1", "SKU-3", 2)
    conn = pool.acquire()
    try:
        assert not conn.closed, f"pool handed out {conn!r}"
    finally:
        pool.release(conn)


def test_pool_keeps_serving_after_many_failed_reservations():
    _, _, stock = make_service(max_size=2)
    stock.receive("SKU-4", 1)
    for n in range(5):
        with pytest.raises(OutOfStock):
            stock.reserve(f"order-{n}", "SKU-4", 2)
    stock.reserve("order-ok", "SKU-4", 1)
    assert stock.on_hand("SKU-4") == 0


def test_pool_caps_connections_checked_out_at_once():
    _, pool, _ = make_service(max_size=2)
    first, second = pool.acquire(), pool.acquire()
    with pytest.raises(PoolExhausted):
        pool.acquire()
    pool.release(first)
    pool.release(second)
    assert pool.idle_count == 2
