import threading
import time


class CancelledError(Exception):
    pass


class TimeoutError(Exception):
    pass


class Future:
    """The eventual result of a submitted call. Done-callbacks run in the thread that completes the future."""

    def __init__(self, label=""):
        self.label = label
        self._cond = threading.Condition()
        self._state = "pending"
        self._result = None
        self._exception = None
        self._callbacks = []

    def done(self):
        with self._cond:
            return self._state in ("finished", "cancelled")

    def cancel(self):
        with self._cond:
            if self._state != "pending":
                return False
            self._state = "cancelled"
            self._cond.notify_all()
        self._run_callbacks()
        return True

    def cancelled(self):
        with self._cond:
            return self._state == "cancelled"

    def _mark_running(self):
        with self._cond:
            if self._state != "pending":
                return False
            self._state = "running"
            return True

    def _finish(self, result=None, exception=None):
        with self._cond:
            self._result, self._exception = result, exception
            self._state = "finished"
            self._cond.notify_all()
        self._run_callbacks()

    def _run_callbacks(self):
        with self._cond:
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)

    def add_done_callback(self, fn):
        with self._cond:
            if self._state not in ("finished", "cancelled"):
                self._callbacks.append(fn)
                return
        fn(self)

    def _wait(self, timeout):
        with self._cond:
            if not self._cond.wait_for(lambda: self._state in ("finished", "cancelled"), timeout):
                raise TimeoutError(f"{self.label or 'future'} not done after {timeout} s")
            if self._state == "cancelled":
                raise CancelledError(self.label)

    def result(self, timeout=None):
        self._wait(timeout)
        if self._exception is not None:
            raise self._exception
        return self._result

    def exception(self, timeout=None):
        self._wait(timeout)
        return self._exception


def wait(futures, timeout=None):
    """Wait until every future is done or `timeout` passes; returns (done, not_done) lists."""
    deadline = None if timeout is None else time.monotonic() + timeout
    pending = list(futures)
    for future in list(pending):
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            future._wait(remaining)
        except TimeoutError:
            break
        except CancelledError:
            pass
        pending.remove(future)
    done = [f for f in futures if f not in pending]
    return done, pending
