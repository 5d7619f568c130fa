"""A fixed set of daemon worker threads taking calls from one FIFO queue."""
import itertools
import queue
import threading

from .futures import Future

_STOP = object()
_ids = itertools.count(1)


class PoolClosed(RuntimeError):
    pass


class TaskPool:
    """Calls run in submission order across `workers` threads; with workers=1 they run strictly one after another."""

    def __init__(self, workers=4, name="taskpool"):
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.name = f"{name}-{next(_ids)}"
        self._queue = queue.Queue()
        self._closed = False
        self._threads = []
        for n in range(workers):
            thread = threading.Thread(target=self._work, name=f"{self.name}-w{n}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def _work(self):
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            future, fn, args, kwargs = item
            if future.cancelled():
                continue
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:
                future.set_exception(exc)

    def submit(self, fn, *args, **kwargs):
        if self._closed:
            raise PoolClosed(f"{self.name} is shut down")
        future = Future()
        self._queue.put((future, fn, args, kwargs))
        return future

    def map(self, fn, items, timeout=None):
        futures = [self.submit(fn, item) for item in items]
        return [f.result(timeout) for f in futures]

    def shutdown(self, wait=True, timeout=None):
        """Stop taking calls; queued calls still run. Returns the worker threads still alive after `timeout`."""
        if not self._closed:
            self._closed = True
            for _ in self._threads:
                self._queue.put(_STOP)
        if wait:
            for thread in self._threads:
                thread.join(timeout)
        return [t for t in self._threads if t.is_alive()]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown()
