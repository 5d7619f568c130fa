"""A one-shot signal that a build step has finished."""
import threading


class DependencyTimeout(TimeoutError):
    pass


class CompletionSignal:
    def __init__(self, name):
        self.name = name
        self._cond = threading.Condition()
        self.succeeded = None
        self.waiting = 0

    def finish(self, ok):
        with self._cond:
            self.succeeded = bool(ok)
            self._cond.notify_all()

    def wait(self, timeout=None):
        """Block until the step finishes; returns whether it succeeded."""
        with self._cond:
            self.waiting += 1
            try:
                # The step may have finished before anyone waited (cached steps do).
                if not self._cond.wait_for(lambda: self.succeeded is not None, timeout):
                    raise DependencyTimeout(f"step {self.name!r} did not finish within {timeout}s")
            finally:
                self.waiting -= 1
            return self.succeeded
