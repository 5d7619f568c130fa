"""A small connection pool: reuses idle connections and caps how many are open at once."""
from contextlib import contextmanager


class PoolExhausted(Exception):
    """Raised when every connection the pool may open is already checked out."""


class ConnectionPool:
    def __init__(self, db, max_size=4):
        if max_size < 1:
            raise ValueError(f"max_size must be at least 1, got {max_size}")
        self._db = db
        self.max_size = max_size
        self._idle = []
        self._open = 0

    @property
    def idle_count(self):
        return len(self._idle)

    def acquire(self):
        if self._idle:
            return self._idle.pop()
        if self._open >= self.max_size:
            raise PoolExhausted(f"all {self.max_size} connections are checked out")
        self._open += 1
        return self._db.connect()

    def release(self, conn):
        self._idle.append(conn)

    @contextmanager
    def transaction(self):
        """Yield a pooled connection inside a transaction.

        The transaction commits when the block finishes. If the block raises, the connection is
        closed rather than rolled back: after an error we cannot trust its session state.
        """
        conn = self.acquire()
        try:
            yield conn
            conn.commit()
        except BaseException:
            conn.close()
            raise
        finally:
            self.release(conn)
