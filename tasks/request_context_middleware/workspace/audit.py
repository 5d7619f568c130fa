"""The audit log: every change records the acting user from the request context."""
import threading

import context


class AuditLog:
    def __init__(self):
        self._lock = threading.Lock()
        self.entries = []

    def record(self, action, target):
        actor = context.get("user", "system")
        on_behalf = context.get("on_behalf_of")
        entry = {"action": action, "target": target, "actor": actor}
        if on_behalf:
            entry["on_behalf_of"] = on_behalf
        with self._lock:
            self.entries.append(entry)
        return entry

    def by_actor(self, actor):
        with self._lock:
            return [e for e in self.entries if e["actor"] == actor]

    def last(self):
        with self._lock:
            return self.entries[-1] if self.entries else None

    def summary(self):
        """How many entries of each action, for the daily compliance mail."""
        counts = {}
        with self._lock:
            for entry in self.entries:
                counts[entry["action"]] = counts.get(entry["action"], 0) + 1
        return dict(sorted(counts.items()))

    def export(self, redact=("target",)):
        """Entries with the named fields masked, for sharing outside the team."""
        with self._lock:
            rows = [dict(e) for e in self.entries]
        for row in rows:
            for name in redact:
                if name in row:
                    row[name] = row[name][:2] + "***"
        return rows
