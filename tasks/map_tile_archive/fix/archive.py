"""Random access to tiles in an archive file, optionally narrowed to one zoom level."""
import copy
import os

from tileformat import read_index


class ArchiveClosed(RuntimeError):
    pass


class TileArchive:
    def __init__(self, path):
        self.path = os.fspath(path)
        self._handle = open(self.path, "rb")
        self._index = read_index(self._handle)
        self.zoom = None
        self._owns_handle = True

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle is not None and getattr(self, "_owns_handle", False):
            handle.close()

    def close(self):
        self._handle.close()

    def view(self, zoom):
        """The same archive seen through one zoom level; shares the open file."""
        narrowed = copy.copy(self)
        narrowed.zoom = zoom
        narrowed._owns_handle = False
        return narrowed

    def keys(self):
        return sorted(k for k in self._index if self.zoom is None or k[0] == self.zoom)

    def count(self):
        return len(self.keys())

    def read_tile(self, zoom, x, y):
        if self.zoom is not None and zoom != self.zoom:
            raise KeyError(f"tile {zoom}/{x}/{y} is outside zoom level {self.zoom}")
        if self._handle.closed:
            raise ArchiveClosed(f"tile archive {self.path} is closed")
        offset, length = self._index[(zoom, x, y)]
        self._handle.seek(offset)
        return self._handle.read(length)
