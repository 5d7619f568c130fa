"""The coordinator's view: which workers have sent a heartbeat recently."""
import json
from dataclasses import dataclass


@dataclass
class NodeStatus:
    node: str
    last_seq: int
    last_seen: float
    load: float


class LivenessTable:
    def __init__(self, grace_seconds=15.0):
        if grace_seconds <= 0:
            raise ValueError("grace_seconds must be positive")
        self.grace = grace_seconds
        self._nodes = {}

    def observe(self, message, received_at):
        """Record one heartbeat; stale or duplicate sequence numbers are ignored."""
        beat = json.loads(message)
        status = self._nodes.get(beat["node"])
        if status is not None and beat["seq"] <= status.last_seq:
            return False
        self._nodes[beat["node"]] = NodeStatus(beat["node"], beat["seq"], received_at, beat["load"])
        return True

    def alive(self, now):
        return sorted(n for n, s in self._nodes.items() if now - s.last_seen <= self.grace)

    def dead(self, now):
        return sorted(n for n, s in self._nodes.items() if now - s.last_seen > self.grace)

    def least_loaded(self, now):
        candidates = [self._nodes[n] for n in self.alive(now)]
        return min(candidates, key=lambda s: (s.load, s.node)).node if candidates else None
