"""Write a file so readers see either the old version or the complete new one, never a partial file.

Rows go to `<dest>.part`, which replaces `dest` only when the writer finishes cleanly. A `<dest>.lock`
file marks an export in progress, so two jobs never write the same report at once.
"""
import os


class ExportBusy(RuntimeError):
    """Another export to the same destination is in progress."""


class AtomicExport:
    def __init__(self, dest):
        self.dest = os.fspath(dest)
        self.part_path = self.dest + ".part"
        self.lock_path = self.dest + ".lock"
        self._handle = None

    def __enter__(self):
        try:
            fd = os.open(self.lock_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            raise ExportBusy(f"an export to {self.dest} is already running") from None
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        self._handle = open(self.part_path, "w", newline="", encoding="utf-8")
        return self._handle

    def __exit__(self, exc_type, exc, tb):
        self._handle.close()
        if exc_type is not None:
            os.remove(self.part_path)
            return False
        os.replace(self.part_path, self.dest)
        os.remove(self.lock_path)
        return False
