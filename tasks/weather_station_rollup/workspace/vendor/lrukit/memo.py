"""@memoize: cache a function's results in an LRUCache keyed by its arguments."""
import functools

from .cache import LRUCache

_SENTINEL = object()


def _make_key(args, kwargs, typed):
    key = args
    if kwargs:
        key += (_SENTINEL,) + tuple(sorted(kwargs.items()))
    if typed:
        key += tuple(type(a) for a in args)
    return key


def memoize(maxsize=128, typed=False, key=None):
    """Decorator. `key`, when given, maps the call's arguments to the cache key."""

    def decorate(fn):
        cache = LRUCache(maxsize)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            k = key(*args, **kwargs) if key is not None else _make_key(args, kwargs, typed)
            hit = cache.get(k, _SENTINEL)
            if hit is not _SENTINEL:
                return hit
            value = fn(*args, **kwargs)
            cache.put(k, value)
            return value

        wrapper.cache = cache
        wrapper.cache_info = cache.info
        wrapper.cache_clear = cache.clear
        return wrapper

    return decorate
