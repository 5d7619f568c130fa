import threading

from cache import TTLCache
from hosts import HostsFile
from records import normalize
from upstream import NXDomain


class Resolver:
    def __init__(self, upstream, clock, negative_ttl=30, hosts=None):
        self.upstream = upstream
        self.hosts = hosts or HostsFile()
        self.cache = TTLCache(clock)
        self.negative_ttl = negative_ttl
        self._lock = threading.Lock()
        self._inflight = {}
        self.waiting = 0

    def _key(self, name, rtype):
        return (normalize(name), rtype)

    def _fetch(self, key):
        name, rtype = key
        try:
            answers = self.upstream.query(name, rtype)
        except NXDomain:
            self.cache.put(key, (), self.negative_ttl)
            return ()
        ttl = min(r.ttl for r in answers)
        values = tuple(r.value for r in answers if r.rtype == rtype)
        self.cache.put(key, values, ttl)
        return values

    def resolve(self, name, rtype="A"):
        key = self._key(name, rtype)
        pinned = self.hosts.lookup(name, rtype)
        if pinned is not None:
            return list(pinned)
        cached = self.cache.get(key)
        if cached is not None:
            return list(cached)
        with self._lock:
            event = self._inflight.get(key)
            leader = event is None
            if leader:
                event = threading.Event()
                self._inflight[key] = event
            else:
                self.waiting += 1
        if leader:
            try:
                return list(self._fetch(key))
            finally:
                with self._lock:
                    del self._inflight[key]
                event.set()
        event.wait(timeout=5)
        with self._lock:
            self.waiting -= 1
        shared = self.cache.get((name, rtype))
        if shared is not None:
            return list(shared)
        return list(self._fetch(key))
