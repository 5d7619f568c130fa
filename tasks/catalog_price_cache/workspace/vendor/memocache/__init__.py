"""memocache 3.0.1: bounded caches and a memoizing decorator."""
from .caches import Cache, LRUCache, TTLCache
from .decorators import cached
from .keys import hashkey, typedkey

__all__ = ["Cache", "LRUCache", "TTLCache", "cached", "hashkey", "typedkey"]
__version__ = "3.0.1"
