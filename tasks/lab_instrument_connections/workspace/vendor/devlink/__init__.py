"""devlink: line-oriented links to bench instruments, and a bounded pool of them.

A transport is any object with write(bytes) and readline() -> bytes; it raises
TimeoutError when the instrument does not answer.
"""
from .link import Link, LinkClosed, LinkError, LinkTimeout
from .pool import LinkPool, PoolExhausted

__all__ = ["Link", "LinkClosed", "LinkError", "LinkTimeout", "LinkPool", "PoolExhausted"]
__version__ = "2.0.3"
