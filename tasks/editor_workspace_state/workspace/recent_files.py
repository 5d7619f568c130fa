"""The "Open Recent" menu: most recently opened files first."""
import os


class RecentFiles:
    def __init__(self, paths=(), limit=10):
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self.limit = limit
        self._paths = []
        for path in reversed(list(paths)):
            self.touch(path)

    def touch(self, path):
        """Move `path` to the top of the list, dropping the oldest entry past the limit."""
        path = os.path.normpath(path)
        if path in self._paths:
            self._paths.remove(path)
        self._paths.insert(0, path)
        del self._paths[self.limit :]

    def forget_missing(self, exists=os.path.exists):
        """Drop files that were deleted or moved since they were opened."""
        self._paths = [p for p in self._paths if exists(p)]

    def __iter__(self):
        return iter(list(self._paths))

    def __len__(self):
        return len(self._paths)

    def to_list(self):
        return list(self._paths)

    @classmethod
    def from_list(cls, paths, limit=10):
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            raise ValueError("recent files must be a list of paths")
        return cls(paths, limit=limit)
