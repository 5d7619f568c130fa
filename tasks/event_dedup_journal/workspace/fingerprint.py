"""Content fingerprints for webhook events.

The payment provider delivers at least once and its events carry no id, so duplicates are recognised by content.
"""
import hashlib
import json


def fingerprint(event: dict) -> str:
    canonical = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:20]
