"""connpool: a bounded pool of DB-API connections.

    pool = Pool(lambda: sqlite3.connect(path), max_size=4)
    with pool.connection() as conn:
        conn.execute(...)

Connections go back to the pool as they are: the pool does not commit, roll back or reset them. Finishing a
transaction is the caller's business.
"""
from .pool import Pool, PoolClosed, PoolExhausted, PoolStats

__all__ = ["Pool", "PoolClosed", "PoolExhausted", "PoolStats"]
__version__ = "3.0.4"
