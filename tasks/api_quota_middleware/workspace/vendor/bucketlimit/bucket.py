import threading
import time


class TokenBucket:
    """Holds up to `capacity` tokens and refills `rate` tokens per second. Each request spends tokens."""

    def __init__(self, rate, capacity, clock=time.monotonic):
        if rate <= 0 or capacity <= 0:
            raise ValueError("rate and capacity must be positive")
        self.rate = float(rate)
        self.capacity = float(capacity)
        self.clock = clock
        self._tokens = float(capacity)
        self._updated = clock()
        self._lock = threading.Lock()

    def _refill(self):
        now = self.clock()
        elapsed = max(0.0, now - self._updated)
        self._tokens = min(self.capacity, self._tokens + elapsed * self.rate)
        self._updated = now

    def try_take(self, tokens=1):
        with self._lock:
            self._refill()
            if self._tokens >= tokens:
                self._tokens -= tokens
                return True
            return False

    def tokens(self):
        with self._lock:
            self._refill()
            return self._tokens

    def retry_after(self, tokens=1):
        """Seconds until `tokens` are available (0 when they already are)."""
        with self._lock:
            self._refill()
            missing = tokens - self._tokens
            return 0.0 if missing <= 0 else missing / self.rate
