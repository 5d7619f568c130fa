"""The cache itself: an ordered mapping trimmed to `maxsize` entries."""
import threading
from collections import OrderedDict
from dataclasses import dataclass

_MISSING = object()


@dataclass(frozen=True)
class CacheInfo:
    hits: int
    misses: int
    size: int
    maxsize: int


class LRUCache:
    def __init__(self, maxsize=128):
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self._data = OrderedDict()
        self._lock = threading.RLock()
        self._hits = 0
        self._misses = 0

    def get(self, key, default=None):
        with self._lock:
            value = self._data.get(key, _MISSING)
            if value is _MISSING:
                self._misses += 1
                return default
            self._data.move_to_end(key)
            self._hits += 1
            return value

    def put(self, key, value):
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def pop(self, key, default=None):
        with self._lock:
            return self._data.pop(key, default)

    def __contains__(self, key):
        with self._lock:
            return key in self._data

    def __len__(self):
        return len(self._data)

    def clear(self):
        with self._lock:
            self._data.clear()
            self._hits = self._misses = 0

    def info(self):
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._data), self.maxsize)
