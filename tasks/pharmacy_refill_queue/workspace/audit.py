from contextlib import contextmanager


class AuditTrail:
    def __init__(self):
        self.entries = []
        self.open_sessions = set()

    @contextmanager
    def session(self, pharmacist, rx_id):
        key = (pharmacist, rx_id)
        self.open_sessions.add(key)
        self.entries.append(("begin", pharmacist, rx_id))
        yield lambda event: self.entries.append((event, pharmacist, rx_id))
        self.entries.append(("end", pharmacist, rx_id))
        self.open_sessions.discard(key)

    def events_for(self, rx_id):
        return [e for e, _, r in self.entries if r == rx_id]
