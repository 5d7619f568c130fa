"""The support page's view of a tenant: which flags differ from the global defaults, and a change log."""
import json
import time
from pathlib import Path


def differences(defaults, resolved):
    """{flag: (default, tenant value)} for every flag the tenant sees differently."""
    return {name: (defaults[name], value) for name, value in sorted(resolved.items()) if defaults.get(name) != value}


class ChangeLog:
    """Edits to the flag document, one JSON object per line, newest last."""

    def __init__(self, path, clock=time.time):
        self.path = Path(path)
        self.clock = clock

    def record(self, who, tenant, flag, value):
        if not isinstance(value, bool):
            raise ValueError("flag values are true or false")
        entry = {"at": round(self.clock(), 3), "who": who, "tenant": tenant, "flag": flag, "value": value}
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry, sort_keys=True) + "\n")
        return entry

    def history(self, tenant=None):
        if not self.path.exists():
            return []
        entries = [json.loads(line) for line in self.path.read_text(encoding="utf-8").splitlines() if line]
        return [e for e in entries if tenant is None or e["tenant"] == tenant]

    def apply_to(self, document):
        """The document with every recorded edit applied in order (a new dict; `document` is left alone)."""
        doc = json.loads(json.dumps(document))
        for entry in self.history():
            doc.setdefault("tenants", {}).setdefault(entry["tenant"], {})[entry["flag"]] = entry["value"]
        return doc
