"""A JSON file that is replaced atomically, so a crash never leaves half a file."""
import json
import os
import tempfile


class StateFile:
    def __init__(self, path, encoder=None):
        self.path = os.fspath(path)
        self._encoder = encoder or json.JSONEncoder(indent=2, sort_keys=True)

    def load(self, default=None):
        try:
            with open(self.path, encoding="utf-8") as fh:
                return json.load(fh)
        except FileNotFoundError:
            return default

    def save(self, data):
        """Write `data` next to the target, then move it over the target in one step."""
        # A staging file per save: two overlapping saves must not write into, or
        # rename away, each other's staging file.
        directory, name = os.path.split(self.path)
        fd, staging = tempfile.mkstemp(dir=directory or ".", prefix=f".{name}.", suffix=".tmp")
        try:
            with open(fd, "w", encoding="utf-8") as fh:
                for chunk in self._encoder.iterencode(data):
                    fh.write(chunk)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(staging, self.path)
        except BaseException:
            if os.path.exists(staging):
                os.remove(staging)
            raise
