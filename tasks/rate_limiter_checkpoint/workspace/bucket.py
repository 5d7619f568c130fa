"""Token buckets for API rate limiting.

Buckets are created by the million, so they use ``__slots__``. Each carries a lock, which cannot be pickled, so the
pickling state is spelled out by hand.
"""
import threading

DEFAULT_CAPACITY = 10
DEFAULT_REFILL_PER_SEC = 1.0


class TokenBucket:
    __slots__ = ("capacity", "refill_per_sec", "tokens", "updated_at", "_lock")

    def __init__(self, capacity: float, refill_per_sec: float, now: float = 0.0):
        if capacity <= 0 or refill_per_sec <= 0:
            raise ValueError("capacity and refill rate must be positive")
        self.capacity = capacity
        self.refill_per_sec = refill_per_sec
        self.tokens = float(capacity)
        self.updated_at = now
        self._lock = threading.Lock()

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self.updated_at)
        self.tokens = min(self.limit, self.tokens + elapsed * self.refill_per_sec)
        self.updated_at = now

    @property
    def limit(self) -> float:
        return self.capacity

    def take(self, now: float, cost: float = 1.0) -> bool:
        with self._lock:
            self._refill(now)
            if self.tokens >= cost:
                self.tokens -= cost
                return True
            return False

    def __getstate__(self):
        return {name: getattr(self, name) for name in self.__slots__ if not name.startswith("_")}

    def __setstate__(self, state):
        # Checkpoints from before a field existed still load, with that field at its default.
        TokenBucket.__init__(
            self,
            state.get("capacity", DEFAULT_CAPACITY),
            state.get("refill_per_sec", DEFAULT_REFILL_PER_SEC),
            state.get("updated_at", 0.0),
        )
        self.tokens = state.get("tokens", float(self.capacity))


class BurstBucket(TokenBucket):
    """A bucket that may briefly go above its capacity by ``burst`` tokens (paid plans)."""

    __slots__ = ("burst",)

    def __init__(self, capacity: float, refill_per_sec: float, burst: float, now: float = 0.0):
        self.burst = burst
        super().__init__(capacity, refill_per_sec, now)
        self.tokens = float(capacity + burst)

    @property
    def limit(self) -> float:
        return self.capacity + self.burst

    def __setstate__(self, state):
        super().__setstate__(state)
        self.burst = state.get("burst", 0.0)
