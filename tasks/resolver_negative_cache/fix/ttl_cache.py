"""A TTL cache that can also remember that something does not exist ("negative caching").

The cache is dumped to disk on shutdown and loaded on start, so a restarted service begins warm.
"""
import enum
import pickle
from pathlib import Path


class _Marker(enum.Enum):
    # Enum members pickle by name, so a loaded NOT_FOUND is the very same object; a bare object() would not be.
    MISSING = "missing"
    NOT_FOUND = "not found"


MISSING = _Marker.MISSING      # returned by get() when nothing usable is cached
NOT_FOUND = _Marker.NOT_FOUND  # stored as a value: "we asked, and there is no such thing"


class TtlCache:
    def __init__(self):
        self._entries = {}

    def put(self, key, value, ttl: float, now: float) -> None:
        if ttl <= 0:
            raise ValueError("ttl must be positive")
        self._entries[key] = (value, now + ttl)

    def get(self, key, now: float):
        entry = self._entries.get(key)
        if entry is None:
            return MISSING
        value, expires_at = entry
        if now >= expires_at:
            del self._entries[key]
            return MISSING
        return value

    def __len__(self):
        return len(self._entries)

    def dump(self, path: Path) -> None:
        Path(path).write_bytes(pickle.dumps(self._entries))

    @classmethod
    def load(cls, path: Path) -> "TtlCache":
        cache = cls()
        path = Path(path)
        if path.exists():
            cache._entries = pickle.loads(path.read_bytes())
        return cache
