"""In-memory key/value store shared by several worker threads."""


class SharedResource:
    """A versioned dictionary. Not thread-safe on its own; callers go through a guard."""

    def __init__(self, initial=None):
        self._data = dict(initial or {})
        self._version = 0

    @property
    def version(self):
        """Number of writes applied since creation."""
        return self._version

    def read(self, key):
        try:
            return self._data[key]
        except KeyError:
            raise KeyError(f"no value stored under {key!r}") from None

    def write(self, key, value):
        self._data[key] = value
        self._version += 1

    def keys(self):
        return sorted(self._data)
