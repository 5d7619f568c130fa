"""An in-process stand-in for a database connection, used by the warehouse services and their tests.

Writes are staged per connection and become visible to other connections only on commit, which is
enough to exercise transaction handling without a real server.
"""


class ConnectionClosed(Exception):
    """Raised when a closed connection is used."""


class Database:
    """Committed rows per table, shared by every connection opened on it."""

    def __init__(self):
        self.tables = {}
        self.opened = 0

    def connect(self):
        self.opened += 1
        return Connection(self, number=self.opened)


class Connection:
    def __init__(self, db, number):
        self._db = db
        self.number = number
        self.closed = False
        self._pending = {}

    def __repr__(self):
        state = "closed" if self.closed else "open"
        return f"<Connection #{self.number} {state}>"

    def _ensure_open(self):
        if self.closed:
            raise ConnectionClosed(f"connection #{self.number} is closed")

    def get(self, table, key, default=None):
        self._ensure_open()
        staged = self._pending.get(table, {})
        if key in staged:
            return staged[key]
        return self._db.tables.get(table, {}).get(key, default)

    def put(self, table, key, value):
        self._ensure_open()
        self._pending.setdefault(table, {})[key] = value

    def commit(self):
        self._ensure_open()
        for table, rows in self._pending.items():
            self._db.tables.setdefault(table, {}).update(rows)
        self._pending = {}

    def rollback(self):
        self._ensure_open()
        self._pending = {}

    def close(self):
        self._pending = {}
        self.closed = True
