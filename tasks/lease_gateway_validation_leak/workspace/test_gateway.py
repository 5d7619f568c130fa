import threading

import pytest

from gateway import Gateway, Request
from leases import LeasePool, PoolExhausted


def put(key, body=b"data", tenant="acme", rid=""):
    return Request("PUT", tenant, key, body, rid)


def test_put_then_get_round_trip():
    gw = Gateway()
    assert gw.handle(put("reports/2026/q3.csv", b"a,b\n1,2\n")).status == 201
    got = gw.handle(Request("GET", "acme", "reports/2026/q3.csv"))
    assert (got.status, got.body) == (200, b"a,b\n1,2\n")
    assert gw.stats()["leases_in_use"] == 0


def test_usage_counts_a_tenants_objects():
    gw = Gateway()
    gw.handle(put("a/1", b"12345"))
    gw.handle(put("a/2", b"123"))
    gw.handle(put("b/1", b"1", tenant="other"))
    assert gw.usage("acme") == {"objects": 2, "bytes": 8}
    assert gw.storage.list_keys("acme", "a/") == ["a/1", "a/2"]
    assert gw.storage.tenants() == ["acme", "other"]


def test_missing_object_is_404_and_releases_its_lease():
    gw = Gateway(capacity=1)
    for _ in range(3):
        assert gw.handle(Request("GET", "acme", "nope")).status == 404
    assert gw.stats()["leases_in_use"] == 0


def test_invalid_requests_are_rejected_with_400():
    gw = Gateway()
    assert gw.handle(Request("PATCH", "acme", "a")).status == 400
    assert gw.handle(put("Bad Key")).status == 400
    assert gw.handle(Request("GET", "acme", "a", b"body")).status == 400
    assert gw.storage.calls == []


def test_invalid_requests_do_not_hold_leases():
    gw = Gateway(capacity=2)
    gw.handle(put("bad//key"))
    gw.handle(Request("DELETE", "", "reports/x"))
    assert gw.stats()["leases_in_use"] == 0


def test_gateway_keeps_serving_after_a_burst_of_invalid_requests():
    gw = Gateway(capacity=3)
    for i in range(5):
        gw.handle(put(f"BAD-{i}", rid=f"bad-{i}"))
    responses = [gw.handle(put(f"ok/{i}", rid=f"ok-{i}")).status for i in range(3)]
    assert responses == [201, 201, 201], f"valid requests got {responses}; stats {gw.stats()}"


def test_pool_refuses_when_full_and_recovers():
    pool = LeasePool(1, acquire_timeout=0.01)
    lease = pool.acquire("a")
    with pytest.raises(PoolExhausted):
        pool.acquire("b")
    lease.release()
    pool.acquire("c").release()
    assert pool.refused == 1 and pool.in_use() == 0


def test_waiting_request_gets_a_released_lease():
    pool = LeasePool(1, acquire_timeout=1.0)
    first = pool.acquire("first")
    got = []
    t = threading.Thread(target=lambda: got.append(pool.acquire("second")), daemon=True)
    t.start()
    first.release()
    t.join(timeout=2)
    assert not t.is_alive(), "second acquire never returned"
    assert got[0].holder == "second"
