import functools
import time

from .strategies import stop_after_attempt, wait_fixed


class RetryError(Exception):
    """Raised when the stop condition ends the retries; `last_exception` is the final failure."""

    def __init__(self, state):
        super().__init__(f"gave up after {state.attempt_number} attempts: {state.last_exception!r}")
        self.state = state
        self.last_exception = state.last_exception


class retry_if_exception_type:
    def __init__(self, *types):
        self.types = types or (Exception,)

    def __call__(self, exc):
        return isinstance(exc, self.types)


class RetryState:
    def __init__(self, fn, clock):
        self.fn = fn
        self.clock = clock
        self.started = clock()
        self.attempt_number = 0
        self.last_exception = None
        self.idle_for = 0.0

    @property
    def elapsed(self):
        return self.clock() - self.started


class Retrying:
    """Call `fn` until it returns, the exception is not retryable, or `stop` says so."""

    def __init__(self, stop=None, wait=None, retry=None, before_sleep=None, reraise=False, sleep=time.sleep, clock=time.monotonic):
        self.stop = stop or stop_after_attempt(3)
        self.wait = wait or wait_fixed(0)
        self.retry = retry or retry_if_exception_type()
        self.before_sleep = before_sleep
        self.reraise = reraise
        self.sleep = sleep
        self.clock = clock
        self.statistics = {}

    def __call__(self, fn, *args, **kwargs):
        state = RetryState(fn, self.clock)
        while True:
            state.attempt_number += 1
            try:
                result = fn(*args, **kwargs)
            except Exception as exc:
                state.last_exception = exc
                if not self.retry(exc):
                    raise
                if self.stop(state):
                    self._record(state)
                    if self.reraise:
                        raise
                    raise RetryError(state) from exc
                delay = self.wait(state)
                if self.before_sleep is not None:
                    self.before_sleep(state, delay)
                state.idle_for += delay
                self.sleep(delay)
                continue
            self._record(state)
            return result

    def _record(self, state):
        self.statistics = {"attempt_number": state.attempt_number, "idle_for": state.idle_for}


def retry(**options):
    """Decorator form: @retry(stop=..., wait=...). The wrapper exposes `.retrying` for statistics."""

    def decorator(fn):
        retrying = Retrying(**options)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return retrying(fn, *args, **kwargs)

        wrapper.retrying = retrying
        return wrapper

    return decorator
