"""Write-behind cache: balance updates are kept in memory and written to the database in batches."""


class WriteBehindCache:
    def __init__(self, database, batch_size=50):
        self._db = database
        self._batch_size = batch_size
        self._values = {}
        self._dirty = set()

    def get(self, key, default=0):
        if key in self._values:
            return self._values[key]
        return self._db.read(key, default)

    def set(self, key, value):
        self._values[key] = value
        self._dirty.add(key)
        if len(self._dirty) >= self._batch_size:
            self.flush()

    @property
    def pending(self):
        return len(self._dirty)

    def flush(self):
        if not self._dirty:
            return
        self._db.write_many({key: self._values[key] for key in self._dirty})
        self._dirty.clear()
