import itertools
import queue
import threading

from .futures import Future


class PoolClosed(RuntimeError):
    pass


_STOP = object()


class Pool:
    """`workers` daemon threads taking calls from one queue, in submission order."""

    def __init__(self, workers=2, name="workpool"):
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self._queue = queue.Queue()
        self._closed = False
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.completed = 0
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True) for i in range(workers)]
        for thread in self._threads:
            thread.start()

    def submit(self, fn, *args, label=None, **kwargs):
        with self._lock:
            if self._closed:
                raise PoolClosed("pool is shut down")
            future = Future(label or f"task-{next(self._ids)}")
            self._queue.put((future, fn, args, kwargs))
            return future

    def map(self, fn, items):
        return [self.submit(fn, item) for item in items]

    def _work(self):
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            future, fn, args, kwargs = item
            if not future._mark_running():
                continue
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:
                future._finish(exception=exc)
            else:
                future._finish(result=result)
            with self._lock:
                self.completed += 1

    def shutdown(self, wait=True, timeout=None):
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for _ in self._threads:
            self._queue.put(_STOP)
        if wait:
            for thread in self._threads:
                thread.join(timeout)
