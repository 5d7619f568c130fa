"""Retry calls that fail for reasons expected to pass (network blips, 503s)."""
import time


class TransientError(Exception):
    pass


def retry_call(fn, *args, attempts=3, base_delay=0.5, sleep=time.sleep):
    """Call fn(*args) until it succeeds, sleeping base_delay * 2**n between tries."""
    if attempts < 1:
        raise ValueError(f"attempts must be at least 1, got {attempts}")
    for attempt in range(attempts):
        try:
            return fn(*args)
        except TransientError:
            if attempt == attempts - 1:
                raise
            sleep(base_delay * 2 ** attempt)
