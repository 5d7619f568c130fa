"""lrukit: a least-recently-used cache and a memoizing decorator built on it."""
from .cache import CacheInfo, LRUCache
from .memo import memoize

__all__ = ["CacheInfo", "LRUCache", "memoize"]
__version__ = "1.2.0"
