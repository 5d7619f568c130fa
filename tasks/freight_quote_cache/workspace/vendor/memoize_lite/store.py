"""A least-recently-used mapping with hit and miss counters."""
import threading
from collections import OrderedDict
from typing import NamedTuple

_MISSING = object()


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    size: int
    maxsize: int


class LRUStore:
    def __init__(self, maxsize=128):
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self._data = OrderedDict()
        self._lock = threading.RLock()
        self.hits = 0
        self.misses = 0

    def get(self, key, default=_MISSING):
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return self._data[key]
            self.misses += 1
            return default

    def put(self, key, value):
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def __contains__(self, key):
        return key in self._data

    def __len__(self):
        return len(self._data)

    def keys(self):
        return list(self._data)

    def clear(self):
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0

    def info(self):
        return CacheInfo(self.hits, self.misses, len(self._data), self.maxsize)
