import threading

from guard import LockManager, ResourceGuard
from kv_store import SharedResource
from locking import ReentrantLock


def run_in_thread(fn, timeout=2.0):
    """Run fn in a daemon thread; return (finished, result, error)."""
    box = {}

    def target():
        try:
            box["result"] = fn()
        except BaseException as exc:  # reported to the test below
            box["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout)
    return (not t.is_alive()), box.get("result"), box.get("error")


def test_plain_read_and_write():
    guard = ResourceGuard(SharedResource({"hits": 1}))
    guard.write("hits", 5, timeout=1)
    assert guard.read("hits", timeout=1) == 5
    assert guard.resource.version == 1


def test_read_then_write_completes():
    guard = ResourceGuard(SharedResource({"hits": 41}))
    finished, result, error = run_in_thread(lambda: guard.read_then_write("hits", lambda v: v + 1))
    assert finished, "read_then_write('hits') did not finish within 2s"
    assert error is None
    assert result == 42
    assert guard.read("hits", timeout=1) == 42


def test_owner_can_reenter_lock():
    lock = ReentrantLock()

    def nested():
        assert lock.acquire(timeout=1)
        try:
            return lock.acquire(timeout=0.5)
        finally:
            lock.release()

    finished, reentered, error = run_in_thread(nested)
    assert finished and error is None
    assert reentered is True, "the thread holding the lock could not acquire it again"


def test_other_thread_times_out_while_lock_held():
    lock = ReentrantLock()
    assert lock.acquire(timeout=1)
    try:
        finished, got_it, error = run_in_thread(lambda: lock.acquire(timeout=0.2))
        assert finished and error is None
        assert got_it is False
    finally:
        lock.release()


def test_release_lets_waiting_thread_in():
    lock = ReentrantLock()
    assert lock.acquire(timeout=1)
    got = threading.Event()
    t = threading.Thread(target=lambda: lock.acquire(timeout=2) and got.set(), daemon=True)
    t.start()
    lock.release()
    assert got.wait(2), "waiting thread never acquired the released lock"
    t.join(2)


def test_manager_returns_one_guard_per_name():
    manager = LockManager()
    assert manager.get_guard("orders") is manager.get_guard("orders")
    assert manager.get_guard("orders") is not manager.get_guard("users")
    assert manager.names() == ["orders", "users"]
