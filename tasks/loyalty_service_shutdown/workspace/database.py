"""The points database client (an in-memory table here)."""


class DatabaseClosed(RuntimeError):
    pass


class PointsDatabase:
    def __init__(self):
        self.rows = {}
        self.closed = False

    def write_many(self, rows):
        if self.closed:
            raise DatabaseClosed("points database connection is closed")
        self.rows.update(rows)

    def read(self, key, default=None):
        if self.closed:
            raise DatabaseClosed("points database connection is closed")
        return self.rows.get(key, default)

    def close(self):
        self.closed = True
