import threading
import time

from .bucket import TokenBucket


class RateLimited(Exception):
    def __init__(self, key, retry_after):
        super().__init__(f"{key}: rate limited, retry after {retry_after:.2f} s")
        self.key = key
        self.retry_after = retry_after


class BucketStore:
    """One bucket per key, created on first use with the limits `limits_for(key)` returns.

    Buckets not used for `idle_ttl` seconds are dropped by sweep().
    """

    def __init__(self, limits_for, clock=time.monotonic, idle_ttl=3600):
        self.limits_for = limits_for
        self.clock = clock
        self.idle_ttl = idle_ttl
        self._buckets = {}
        self._last_used = {}
        self._lock = threading.Lock()

    def bucket(self, key):
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                rate, capacity = self.limits_for(key)
                bucket = self._buckets[key] = TokenBucket(rate, capacity, self.clock)
            self._last_used[key] = self.clock()
            return bucket

    def take(self, key, tokens=1):
        bucket = self.bucket(key)
        if not bucket.try_take(tokens):
            raise RateLimited(key, bucket.retry_after(tokens))
        return bucket.tokens()

    def peek(self, key):
        return self.bucket(key).tokens()

    def keys(self):
        with self._lock:
            return sorted(self._buckets)

    def sweep(self):
        now = self.clock()
        with self._lock:
            stale = [k for k, t in self._last_used.items() if now - t >= self.idle_ttl]
            for key in stale:
                self._buckets.pop(key, None)
                self._last_used.pop(key, None)
        return stale
