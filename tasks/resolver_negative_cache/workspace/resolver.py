"""Caching name resolver in front of the (slow) service registry."""
from ttl_cache import MISSING, NOT_FOUND, TtlCache

POSITIVE_TTL = 300.0
NEGATIVE_TTL = 30.0


class Resolver:
    def __init__(self, registry, cache: TtlCache | None = None):
        """``registry`` maps service names to addresses; every lookup in it is counted."""
        self.registry = registry
        self.cache = cache if cache is not None else TtlCache()
        self.upstream_queries = 0

    def _ask_registry(self, name: str):
        self.upstream_queries += 1
        return self.registry.get(name)

    def resolve(self, name: str, now: float):
        """The address for ``name``, or None when the registry has no such service."""
        cached = self.cache.get(name, now)
        if cached is NOT_FOUND:
            return None
        if cached is not MISSING:
            return cached
        address = self._ask_registry(name)
        if address is None:
            self.cache.put(name, NOT_FOUND, NEGATIVE_TTL, now)
        else:
            self.cache.put(name, address, POSITIVE_TTL, now)
        return address
