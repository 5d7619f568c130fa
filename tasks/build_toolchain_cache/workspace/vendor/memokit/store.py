import threading
from collections import OrderedDict, namedtuple

CacheInfo = namedtuple("CacheInfo", "hits misses maxsize currsize")

_MISSING = object()


class LRUStore:
    """A bounded mapping that forgets the least recently used entry first."""

    def __init__(self, maxsize=128):
        if maxsize is not None and maxsize < 1:
            raise ValueError("maxsize must be at least 1 or None")
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
            if default is _MISSING:
                raise KeyError(key)
            return default

    def put(self, key, value):
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while self.maxsize is not None and len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def keys(self):
        with self._lock:
            return list(self._data)

    def clear(self):
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0

    def __len__(self):
        return len(self._data)

    def info(self):
        return CacheInfo(self.hits, self.misses, self.maxsize, len(self._data))
