import copy

from .errors import MigrationError, TooNew


class Migrations:
    def __init__(self, name, base_version=1, key="version"):
        self.name = name
        self.base_version = base_version
        self.key = key
        self._steps = {}

    def step(self, from_version):
        """Register the function that turns a `from_version` document into a `from_version + 1` one."""

        def register(fn):
            if from_version in self._steps:
                raise MigrationError(f"{self.name}: two steps from version {from_version}")
            self._steps[from_version] = fn
            return fn

        return register

    def latest(self):
        """The version a fully upgraded document has: one past the highest registered step."""
        return max(self._steps, default=self.base_version - 1) + 1

    def upgrade(self, doc):
        """A copy of `doc` brought to latest(), and the versions it passed through (empty when already current)."""
        if self.key not in doc:
            raise MigrationError(f"{self.name}: document has no {self.key!r}")
        version = doc[self.key]
        if not isinstance(version, int) or version < self.base_version:
            raise MigrationError(f"{self.name}: bad version {version!r}")
        latest = self.latest()
        if version > latest:
            raise TooNew(f"{self.name}: version {version} is newer than {latest}")
        doc = copy.deepcopy(doc)
        applied = []
        while version < latest:
            if version not in self._steps:
                raise MigrationError(f"{self.name}: no step from version {version}")
            try:
                result = self._steps[version](doc)
            except (KeyError, TypeError, ValueError) as exc:
                raise MigrationError(f"{self.name}: step from {version} failed: {exc!r}") from exc
            doc = doc if result is None else result
            applied.append(version)
            version += 1
            doc[self.key] = version
        return doc, applied
