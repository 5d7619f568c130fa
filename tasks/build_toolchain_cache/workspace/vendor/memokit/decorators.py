import functools

from .keys import hashkey

_MISSING = object()


def memoize(store, key=hashkey, lock=None):
    """Cache `fn`'s results in `store` under `key(*args, **kwargs)`.

    The wrapper exposes `cache_key`, `cache_info()` and `cache_clear()`.
    """

    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            k = key(*args, **kwargs)
            value = store.get(k, _MISSING)
            if value is not _MISSING:
                return value
            value = fn(*args, **kwargs)
            if lock is not None:
                with lock:
                    store.put(k, value)
            else:
                store.put(k, value)
            return value

        wrapper.cache_key = key
        wrapper.cache_info = store.info
        wrapper.cache_clear = store.clear
        wrapper.cache_store = store
        return wrapper

    return decorate
