import threading
import time

import pytest

from routes import InvalidRoute
from routing_table import RoutingTable


def wait_until(predicate, timeout=2.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        threading.Event().wait(0.005)
    return True


def in_thread(fn):
    box = {}

    def target():
        try:
            box["result"] = fn()
        except Exception as exc:
            box["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    return t, box


@pytest.fixture
def table():
    return RoutingTable({"/": ["web-1:8080"], "/api": ["api-1:9000", "api-2:9000"]})


def test_longest_prefix_wins(table):
    assert table.resolve("/api/users") == ("api-1:9000", "api-2:9000")
    assert table.resolve("/index.html") == ("web-1:8080",)


def test_apply_validates_routes(table):
    with pytest.raises(InvalidRoute):
        table.apply({"api": ["api-3:9000"]})
    with pytest.raises(InvalidRoute):
        table.apply({"/api": ["not a host"]})
    assert table.version() == 0


def test_readers_share_the_table(table):
    both_inside = threading.Barrier(2, timeout=2)

    def reader():
        with table.reading(timeout=1):
            both_inside.wait()
        return True

    threads = [in_thread(reader) for _ in range(2)]
    for t, _ in threads:
        t.join(3)
    assert [box.get("result") for _, box in threads] == [True, True]


def test_update_waits_for_active_reader(table):
    with table.reading():
        t, box = in_thread(lambda: table.apply({"/api": ["api-3:9000"]}, timeout=0.2))
        t.join(2)
        assert isinstance(box.get("error"), TimeoutError)
    assert table.apply({"/api": ["api-3:9000"]}, timeout=1) == 1


def test_pending_update_is_not_overtaken_by_new_readers(table):
    with table.reading():
        writer, wbox = in_thread(lambda: table.apply({"/api": ["api-3:9000"]}, timeout=3))
        assert wait_until(lambda: table.lock.stats()["writers_waiting"] == 1)
        late_reader, rbox = in_thread(lambda: table.resolve("/api/orders", timeout=3))
        # the late reader either finished or is queued behind the writer
        assert wait_until(lambda: "result" in rbox or table.lock.stats()["readers_waiting"] == 1)
    writer.join(3)
    late_reader.join(3)
    assert wbox.get("result") == 1
    assert rbox.get("result") == ("api-3:9000",), f"request routed with the old table: {rbox.get('result')}"


def test_new_reader_times_out_behind_waiting_writer(table):
    with table.reading():
        writer, _ = in_thread(lambda: table.apply({"/": ["web-2:8080"]}, timeout=3))
        assert wait_until(lambda: table.lock.stats()["writers_waiting"] == 1)
        got_in = table.lock.acquire_read(timeout=0.3)
        if got_in:
            table.lock.release_read()
        assert got_in is False, "a new reader got in ahead of the waiting writer"
    writer.join(3)
    assert table.resolve("/") == ("web-2:8080",)
