import functools

from .keys import hashkey


def cached(cache, key=hashkey, lock=None):
    """Memoize a function in `cache`. The cached object itself is returned on every hit."""

    def decorator(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            k = key(*args, **kwargs)
            try:
                if lock is None:
                    return cache[k]
                with lock:
                    return cache[k]
            except KeyError:
                pass
            value = fn(*args, **kwargs)
            try:
                if lock is None:
                    cache[k] = value
                else:
                    with lock:
                        cache[k] = value
            except ValueError:
                pass
            return value

        def cache_clear():
            if lock is None:
                cache.clear()
            else:
                with lock:
                    cache.clear()

        wrapper.cache = cache
        wrapper.cache_clear = cache_clear
        return wrapper

    return decorator
