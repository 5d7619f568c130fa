"""memoize_lite: bounded memoization for pure-ish functions.

    from memoize_lite import memoize

    @memoize(maxsize=256)
    def price(route, weight): ...

    price.cache_info()   # CacheInfo(hits=..., misses=..., size=..., maxsize=...)
"""
from .decorators import memoize
from .keys import UnhashableArgument, bind_key, hashable
from .store import CacheInfo, LRUStore

__all__ = ["CacheInfo", "LRUStore", "UnhashableArgument", "bind_key", "hashable", "memoize"]
__version__ = "0.4.1"
