"""Mutable mappings with a size bound. Values are stored and returned as they are, never copied."""
import collections
import time


class Cache(collections.abc.MutableMapping):
    def __init__(self, maxsize):
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self._data = {}
        self.hits = 0
        self.misses = 0

    def __getitem__(self, key):
        try:
            value = self._data[key]
        except KeyError:
            self.misses += 1
            raise
        self.hits += 1
        return value

    def __setitem__(self, key, value):
        if key not in self._data:
            while len(self._data) >= self.maxsize:
                self.popitem()
        self._data[key] = value

    def __delitem__(self, key):
        del self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)

    def popitem(self):
        key = next(iter(self._data))
        return key, self._data.pop(key)


class LRUCache(Cache):
    """Evicts the least recently used entry."""

    def __init__(self, maxsize):
        super().__init__(maxsize)
        self._order = collections.OrderedDict()

    def __getitem__(self, key):
        value = super().__getitem__(key)
        self._order.move_to_end(key)
        return value

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self._order[key] = None
        self._order.move_to_end(key)

    def __delitem__(self, key):
        super().__delitem__(key)
        self._order.pop(key, None)

    def popitem(self):
        key = next(iter(self._order))
        self._order.pop(key)
        return key, self._data.pop(key)


class TTLCache(LRUCache):
    """An LRU cache whose entries also expire `ttl` seconds after they were stored."""

    def __init__(self, maxsize, ttl, timer=time.monotonic):
        super().__init__(maxsize)
        self.ttl = ttl
        self.timer = timer
        self._stored = {}

    def __getitem__(self, key):
        stored = self._stored.get(key)
        if stored is not None and self.timer() - stored >= self.ttl:
            del self[key]
        return super().__getitem__(key)

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self._stored[key] = self.timer()

    def __delitem__(self, key):
        super().__delitem__(key)
        self._stored.pop(key, None)
