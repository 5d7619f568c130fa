"""Append-only journal of applied events (JSON lines); it is replayed on start-up to rebuild state."""
from pathlib import Path

from vendor.ndjson import Appender, iter_records


class Journal:
    def __init__(self, path: Path):
        self.path = Path(path)
        # Sorted keys keep the journal diff-able when operators compare two hosts' files.
        self._out = Appender(self.path, sort_keys=True, durable=True)

    def append(self, event: dict) -> None:
        self._out.append(event)

    def replay(self):
        yield from iter_records(self.path)
