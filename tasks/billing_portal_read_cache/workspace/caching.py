"""Read-through cache for repository lookups, shared by all repository instances in the process."""
import functools
import time
from typing import Callable

_entries: dict[tuple, tuple[float, object]] = {}
clock: Callable[[], float] = time.monotonic


def cached(ttl_s: float = 30.0):
    def decorate(method):
        @functools.wraps(method)
        def wrapper(self, *args):
            # Instances read the same database, so `self` is left out of the key: a hit from one serves all.
            key = (method.__name__, *args)
            hit = _entries.get(key)
            if hit is not None and hit[0] > clock():
                return hit[1]
            value = method(self, *args)
            _entries[key] = (clock() + ttl_s, value)
            return value

        wrapper.cache_key = lambda *args: (method.__name__, *args)
        return wrapper

    return decorate


def invalidate(method, *args) -> None:
    _entries.pop(method.cache_key(*args), None)


def clear() -> None:
    _entries.clear()
