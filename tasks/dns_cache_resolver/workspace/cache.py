import threading


class TTLCache:
    def __init__(self, clock, max_entries=1000):
        self.clock = clock
        self.max_entries = max_entries
        self._data = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key):
        with self._lock:
            item = self._data.get(key)
            if item is None:
                self.misses += 1
                return None
            expires, value = item
            if self.clock() >= expires:
                del self._data[key]
                self.misses += 1
                return None
            self.hits += 1
            return value

    def put(self, key, value, ttl):
        with self._lock:
            if len(self._data) >= self.max_entries and key not in self._data:
                oldest = min(self._data, key=lambda k: self._data[k][0])
                del self._data[oldest]
            self._data[key] = (self.clock() + ttl, value)

    def remaining_ttl(self, key):
        with self._lock:
            item = self._data.get(key)
            if item is None:
                return None
            return max(0, item[0] - self.clock())

    def __len__(self):
        with self._lock:
            return len(self._data)
