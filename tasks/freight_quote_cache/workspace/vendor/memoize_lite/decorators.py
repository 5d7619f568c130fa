"""The memoize decorator."""
import functools
import inspect

from .keys import bind_key
from .store import _MISSING, LRUStore


def memoize(maxsize=128, ignore=(), key=None):
    """Cache a function's results by its arguments.

    `ignore` names parameters left out of the key (a logger, a session). `key`, when given, is called with the same
    arguments as the function and returns the key itself; `ignore` is then unused.
    """

    def decorate(func):
        signature = inspect.signature(func)
        store = LRUStore(maxsize)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            k = key(*args, **kwargs) if key is not None else bind_key(signature, args, kwargs, ignore)
            value = store.get(k, _MISSING)
            if value is _MISSING:
                value = func(*args, **kwargs)
                store.put(k, value)
            return value

        wrapper.cache = store
        wrapper.cache_info = store.info
        wrapper.cache_clear = store.clear
        return wrapper

    return decorate
