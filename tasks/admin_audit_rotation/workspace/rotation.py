"""A log file that rolls over to numbered backups once it reaches a size limit.

`app.log` is always the live file; on rotation it becomes `app.log.1`, the old `.1` becomes `.2`,
and so on, keeping at most `backups` old files.
"""
import os


class RotatingFile:
    def __init__(self, path, max_bytes, backups=3):
        if max_bytes <= 0:
            raise ValueError(f"max_bytes must be positive, got {max_bytes}")
        if backups < 1:
            raise ValueError(f"backups must be at least 1, got {backups}")
        self.path = os.fspath(path)
        self.max_bytes = max_bytes
        self.backups = backups
        self.rotations = 0
        self._open()

    def _open(self):
        self.stream = open(self.path, "a", encoding="utf-8")
        self._size = self.stream.tell()

    def after_write(self, nbytes):
        """Account for bytes just written to `stream`; rotate once the file is full."""
        self._size += nbytes
        if self._size >= self.max_bytes:
            self.rotate()

    def rotate(self):
        self.stream.close()
        for index in range(self.backups - 1, 0, -1):
            older = f"{self.path}.{index}"
            if os.path.exists(older):
                os.replace(older, f"{self.path}.{index + 1}")
        os.replace(self.path, f"{self.path}.1")
        self.rotations += 1
        self._open()

    def close(self):
        self.stream.close()
