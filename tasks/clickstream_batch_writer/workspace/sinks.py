"""Destinations for batches of click records."""
import json
import threading


class MemorySink:
    def __init__(self):
        self.batches = []
        self._lock = threading.Lock()

    def write_batch(self, records):
        with self._lock:
            self.batches.append(list(records))

    def records(self):
        with self._lock:
            return [r for batch in self.batches for r in batch]


class JsonLinesSink:
    def __init__(self, path):
        self.path = path

    def write_batch(self, records):
        with open(self.path, "a", encoding="utf-8") as fh:
            for record in records:
                fh.write(json.dumps(record, sort_keys=True) + "\n")
