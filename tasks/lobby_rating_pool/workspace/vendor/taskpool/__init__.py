"""taskpool: a small thread pool with futures, for services that want a fixed number of background workers."""
from .futures import CancelledError, Future, TimeoutError
from .pool import PoolClosed, TaskPool

__all__ = ["CancelledError", "Future", "PoolClosed", "TaskPool", "TimeoutError"]
__version__ = "1.3.0"
