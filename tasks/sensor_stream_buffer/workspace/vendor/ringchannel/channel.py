import collections
import threading
import time


class Closed(Exception):
    """put() on a closed channel, or get() on a closed channel with nothing left in it."""


class Empty(Exception):
    """get(timeout=...) found nothing within the timeout. The channel may still receive more."""


class Full(Exception):
    """put(timeout=...) found no room within the timeout."""


class Channel:
    """A FIFO of at most `capacity` items.

    close() stops further puts; items already in the channel can still be taken.
    Iterating a channel yields items until it is closed and drained.
    """

    def __init__(self, capacity=64):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self._items = collections.deque()
        self._closed = False
        self._lock = threading.Lock()
        self._not_empty = threading.Condition(self._lock)
        self._not_full = threading.Condition(self._lock)
        self.put_count = 0
        self.dropped = 0

    def put(self, item, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._not_full:
            while True:
                if self._closed:
                    raise Closed("channel is closed")
                if len(self._items) < self.capacity:
                    break
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise Full(f"no room after {timeout} s")
                self._not_full.wait(remaining)
            self._items.append(item)
            self.put_count += 1
            self._not_empty.notify()

    def offer(self, item):
        """put without waiting; returns False (and counts a drop) when full."""
        try:
            self.put(item, timeout=0)
            return True
        except Full:
            with self._lock:
                self.dropped += 1
            return False

    def get(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._not_empty:
            while not self._items:
                if self._closed:
                    raise Closed("channel is closed and drained")
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise Empty(f"nothing after {timeout} s")
                self._not_empty.wait(remaining)
            item = self._items.popleft()
            self._not_full.notify()
            return item

    def close(self):
        with self._lock:
            self._closed = True
            self._not_empty.notify_all()
            self._not_full.notify_all()

    @property
    def closed(self):
        with self._lock:
            return self._closed

    def __len__(self):
        with self._lock:
            return len(self._items)

    def __iter__(self):
        while True:
            try:
                yield self.get()
            except Closed:
                return
