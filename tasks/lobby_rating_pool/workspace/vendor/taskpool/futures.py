"""The result of a call that runs on a pool worker."""
import threading


class TimeoutError(Exception):
    pass


class CancelledError(Exception):
    pass


class Future:
    def __init__(self):
        self._done = threading.Event()
        self._result = None
        self._exception = None
        self._cancelled = False
        self._callbacks = []
        self._lock = threading.Lock()

    def set_result(self, value):
        self._finish(value, None)

    def set_exception(self, exc):
        self._finish(None, exc)

    def cancel(self):
        with self._lock:
            if self._done.is_set():
                return False
            self._cancelled = True
        self._finish(None, CancelledError())
        return True

    def _finish(self, value, exc):
        with self._lock:
            if self._done.is_set():
                return
            self._result, self._exception = value, exc
            self._done.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)

    def add_done_callback(self, callback):
        with self._lock:
            if not self._done.is_set():
                self._callbacks.append(callback)
                return
        callback(self)

    def done(self):
        return self._done.is_set()

    def cancelled(self):
        return self._cancelled

    def result(self, timeout=None):
        """Block until the call has run (or `timeout` seconds pass); re-raise its exception."""
        if not self._done.wait(timeout):
            raise TimeoutError(f"no result after {timeout} s")
        if self._exception is not None:
            raise self._exception
        return self._result
