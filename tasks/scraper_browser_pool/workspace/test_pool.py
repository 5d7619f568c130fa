import threading
import time

import pytest

from browser import BrowserLauncher
from pool import BrowserPool, PoolClosed, PoolTimeout
from scraper import borrowed, scrape


def wait_until(predicate, timeout=2.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        threading.Event().wait(0.005)
    return True


def test_sessions_are_reused():
    launcher = BrowserLauncher()
    pool = BrowserPool(launcher, max_sessions=2)
    for page in range(5):
        scrape(pool, f"https://example.test/{page}")
    assert launcher.launched == 1
    assert pool.stats().idle == 1


def test_acquire_times_out_when_pool_exhausted():
    pool = BrowserPool(BrowserLauncher(), max_sessions=1)
    with borrowed(pool):
        with pytest.raises(PoolTimeout):
            pool.acquire(timeout=0.1)


def test_close_wakes_waiters():
    pool = BrowserPool(BrowserLauncher(), max_sessions=1)
    session = pool.acquire()
    errors = []

    def waiter():
        try:
            pool.acquire(timeout=2)
        except PoolClosed as exc:
            errors.append(exc)

    t = threading.Thread(target=waiter, daemon=True)
    t.start()
    assert wait_until(lambda: pool.stats().waiting == 1)
    pool.close()
    t.join(2)
    assert not t.is_alive()
    assert len(errors) == 1
    assert session.closed


def test_waiting_scrapers_share_the_released_browser():
    launcher = BrowserLauncher()
    pool = BrowserPool(launcher, max_sessions=1)
    first = pool.acquire()
    done_browsing = threading.Event()
    holding, errors = [], []

    def worker(url):
        try:
            with borrowed(pool, timeout=3) as session:
                holding.append(session.session_id)
                session.load(url)
                done_browsing.wait(3)
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(f"https://example.test/{n}",), daemon=True) for n in range(2)]
    for t in threads:
        t.start()
    assert wait_until(lambda: pool.stats().waiting == 2), "workers never started waiting"
    pool.release(first)
    # With one browser only one worker can hold it; give a second one the chance to show up.
    wait_until(lambda: len(holding) == 2, timeout=1)
    done_browsing.set()
    for t in threads:
        t.join(3)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert len(holding) == 2
    assert launcher.launched == 1, f"pool launched {launcher.launched} browsers with max_sessions=1"
    assert pool.stats().size == 1
