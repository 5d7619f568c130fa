"""One JSON object per line, with a UTC timestamp first so the files sort and grep well."""
import json
from datetime import datetime, timezone


def format_entry(timestamp, actor, action, fields):
    if not actor or not action:
        raise ValueError(f"audit entries need an actor and an action, got {actor!r}, {action!r}")
    entry = {
        "at": datetime.fromtimestamp(timestamp, tz=timezone.utc).isoformat(timespec="seconds"),
        "actor": actor,
        "action": action,
    }
    entry.update(sorted(fields.items()))
    return json.dumps(entry) + "\n"
