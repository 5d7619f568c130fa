"""The audit log used by the admin console: record actions, look them up, purge old noise."""
import scan
from segments import SegmentStore

ROUTINE = {"login", "logout", "page_view"}


class AuditLog:
    def __init__(self, segment_size=3):
        self.store = SegmentStore(segment_size)

    def record(self, kind, **data):
        return self.store.append(kind, data)

    def first(self, kind):
        return scan.first(self.store, kind)

    def all(self):
        return list(scan.records(self.store))

    def replay(self, handler, since=0):
        return scan.replay(self.store, handler, since)

    def purge_routine(self):
        """Drop routine events; keep everything a reviewer may need."""
        self.store.compact(lambda record: record.kind not in ROUTINE)
