"""A JSON-lines record of every delivery, read by the subscriber dashboard and the redelivery job."""
import json
from pathlib import Path


class DeliveryLog:
    def __init__(self, path):
        self.path = Path(path)

    def record(self, event_id, sub_id, report):
        entry = {
            "event": event_id,
            "sub": sub_id,
            "url": report.url,
            "delivered": report.delivered,
            "statuses": list(report.statuses),
            "waited_s": report.waited_seconds,
        }
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry, sort_keys=True) + "\n")

    def entries(self):
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text(encoding="utf-8").splitlines() if line.strip()]

    def summary(self):
        """{sub_id: {"delivered": n, "failed": n, "attempts": n}}."""
        out = {}
        for entry in self.entries():
            row = out.setdefault(entry["sub"], {"delivered": 0, "failed": 0, "attempts": 0})
            row["delivered" if entry["delivered"] else "failed"] += 1
            row["attempts"] += len(entry["statuses"])
        return out

    def undelivered(self):
        """(event, sub) pairs still owed a delivery, for the redelivery job."""
        return sorted({(e["event"], e["sub"]) for e in self.entries() if not e["delivered"]})
