"""workpool 0.9.3: a small thread pool with futures and completion callbacks."""
from .futures import CancelledError, Future, TimeoutError, wait
from .pool import Pool, PoolClosed

__all__ = ["CancelledError", "Future", "Pool", "PoolClosed", "TimeoutError", "wait"]
__version__ = "0.9.3"
