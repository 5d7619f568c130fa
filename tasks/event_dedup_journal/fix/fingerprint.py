"""Content fingerprints for webhook events.

The payment provider delivers at least once and its events carry no id, so duplicates are recognised by content.
"""
import hashlib
import json


def fingerprint(event: dict) -> str:
    # Key order must not matter: the journal re-serialises events with sorted keys.
    canonical = json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:20]
