"""Fetch pages through the browser pool."""
from contextlib import contextmanager


@contextmanager
def borrowed(pool, timeout=None):
    session = pool.acquire(timeout=timeout)
    try:
        yield session
    finally:
        pool.release(session)


def scrape(pool, url, timeout=None):
    with borrowed(pool, timeout) as session:
        return session.load(url)
