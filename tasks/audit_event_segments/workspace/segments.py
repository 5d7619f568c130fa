"""Append-only storage for audit events, split into fixed-size segments.

Readers pin the segment they read so that compaction never rewrites a segment under them.
"""
from dataclasses import dataclass


class SegmentBusy(RuntimeError):
    """Compaction was asked for while readers still hold segments open."""


@dataclass(frozen=True)
class Record:
    offset: int
    kind: str
    data: dict


class SegmentReader:
    def __init__(self, store, name, records):
        self._store = store
        self.name = name
        self._records = records
        self.closed = False

    def __iter__(self):
        return iter(self._records)

    def close(self):
        if not self.closed:
            self.closed = True
            self._store._unpin(self.name)


class SegmentStore:
    def __init__(self, segment_size=3):
        if segment_size < 1:
            raise ValueError(f"segment_size must be at least 1, got {segment_size}")
        self._segment_size = segment_size
        self._segments = {}
        self._pins = {}
        self._next_offset = 0

    def segment_names(self):
        return sorted(self._segments)

    def append(self, kind, data):
        name = f"seg-{self._next_offset // self._segment_size:04d}"
        record = Record(self._next_offset, kind, dict(data))
        self._segments.setdefault(name, []).append(record)
        self._next_offset += 1
        return record

    def open_segment(self, name):
        self._pins[name] = self._pins.get(name, 0) + 1
        return SegmentReader(self, name, tuple(self._segments[name]))

    def _unpin(self, name):
        self._pins[name] -= 1

    def open_readers(self):
        return {name: count for name, count in self._pins.items() if count}

    def compact(self, keep):
        """Drop records for which `keep(record)` is false. Offsets are preserved."""
        busy = self.open_readers()
        if busy:
            raise SegmentBusy(f"cannot compact while segments are being read: {busy}")
        for name in list(self._segments):
            kept = [r for r in self._segments[name] if keep(r)]
            if kept:
                self._segments[name] = kept
            else:
                del self._segments[name]
