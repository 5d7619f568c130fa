"""memokit 1.3.0: memoization with explicit stores, key functions and statistics."""
from .keys import hashkey, typedkey
from .store import CacheInfo, LRUStore
from .decorators import memoize

__all__ = ["CacheInfo", "LRUStore", "hashkey", "memoize", "typedkey"]
__version__ = "1.3.0"
