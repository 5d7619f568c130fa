"""Heartbeat messages sent to the cluster coordinator."""
import json
import time


def heartbeat_payload(node_id, seq, started_at, load, now=None):
    now = time.monotonic() if now is None else now
    if seq < 0:
        raise ValueError("sequence numbers start at 0")
    return json.dumps(
        {
            "node": node_id,
            "seq": seq,
            "uptime_s": round(now - started_at, 3),
            "load": round(float(load), 2),
        },
        sort_keys=True,
    )
