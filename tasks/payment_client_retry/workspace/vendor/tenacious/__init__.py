"""tenacious 2.1.0: retry a callable with pluggable stop, wait and retry conditions."""
from .api import RetryError, Retrying, retry, retry_if_exception_type
from .strategies import stop_after_attempt, stop_after_delay, wait_exponential, wait_fixed

__all__ = [
    "RetryError",
    "Retrying",
    "retry",
    "retry_if_exception_type",
    "stop_after_attempt",
    "stop_after_delay",
    "wait_exponential",
    "wait_fixed",
]
__version__ = "2.1.0"
