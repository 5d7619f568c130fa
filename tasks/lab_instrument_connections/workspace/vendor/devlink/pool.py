"""A bounded pool: links are created on demand up to max_links and reused after release."""
import threading
import time


class PoolExhausted(RuntimeError):
    pass


class LinkPool:
    def __init__(self, factory, max_links=2):
        if max_links < 1:
            raise ValueError("max_links must be at least 1")
        self.factory = factory
        self.max_links = max_links
        self._idle = []
        self._in_use = set()
        self._cond = threading.Condition()
        self.created = 0
        self.reused = 0

    def acquire(self, timeout=1.0):
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                while self._idle:
                    link = self._idle.pop()
                    if link.usable():
                        self.reused += 1
                        self._in_use.add(link)
                        return link
                    link.close()
                if len(self._in_use) < self.max_links:
                    link = self.factory()
                    self.created += 1
                    self._in_use.add(link)
                    return link
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise PoolExhausted(f"all {self.max_links} links busy")
                self._cond.wait(remaining)

    def release(self, link):
        with self._cond:
            self._in_use.discard(link)
            self._idle.append(link)
            self._cond.notify()

    def discard(self, link):
        with self._cond:
            self._in_use.discard(link)
            link.close()
            self._cond.notify()

    def stats(self):
        with self._cond:
            return {"idle": len(self._idle), "in_use": len(self._in_use), "created": self.created, "reused": self.reused}
