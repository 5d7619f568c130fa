"""Append-only journal of applied events (JSON lines); it is replayed on start-up to rebuild state."""
import json
from pathlib import Path


class Journal:
    def __init__(self, path: Path):
        self.path = Path(path)

    def append(self, event: dict) -> None:
        # Sorted keys keep the journal diff-able when operators compare two hosts' files.
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps(event, sort_keys=True, ensure_ascii=False) + "\n")

    def replay(self):
        if not self.path.exists():
            return
        with open(self.path, encoding="utf-8") as source:
            for line in source:
                if line.strip():
                    yield json.loads(line)
