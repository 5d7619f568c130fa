import json
import threading

import pytest

from heartbeat import HeartbeatSender
from payload import heartbeat_payload


class CollectingTransport:
    def __init__(self, wanted=1):
        self.sent = []
        self.wanted = wanted
        self.enough = threading.Event()

    def send(self, message):
        self.sent.append(json.loads(message))
        if len(self.sent) >= self.wanted:
            self.enough.set()


def test_payload_fields():
    message = json.loads(heartbeat_payload("node-7", 3, started_at=100.0, load=0.456, now=112.5))
    assert message == {"node": "node-7", "seq": 3, "uptime_s": 12.5, "load": 0.46}
    with pytest.raises(ValueError):
        heartbeat_payload("node-7", -1, 0.0, 0.0)


def test_beats_carry_increasing_sequence_numbers():
    transport = CollectingTransport(wanted=3)
    sender = HeartbeatSender(transport, "node-1", interval=0.02, load=lambda: 0.5)
    sender.start()
    try:
        assert transport.enough.wait(2), "fewer than 3 heartbeats in 2s"
    finally:
        sender.stop(timeout=0.5)
    assert [m["seq"] for m in transport.sent[:3]] == [0, 1, 2]
    assert {m["node"] for m in transport.sent} == {"node-1"}


def test_stop_before_start_is_harmless():
    assert HeartbeatSender(CollectingTransport(), "node-2").stop() is True


def test_start_twice_is_refused():
    sender = HeartbeatSender(CollectingTransport(), "node-3", interval=30)
    sender.start()
    with pytest.raises(RuntimeError):
        sender.start()
    sender.stop(timeout=0.5)


def test_stop_ends_the_heartbeat_thread():
    transport = CollectingTransport()
    sender = HeartbeatSender(transport, "node-4", interval=0.05, load=lambda: 0.1)
    sender.start()
    assert transport.enough.wait(2)
    assert sender.stop(timeout=1), "heartbeat thread still running 1s after stop()"
    assert not sender.running


def test_coordinator_tracks_live_and_dead_nodes():
    from liveness import LivenessTable

    table = LivenessTable(grace_seconds=10)
    assert table.observe(heartbeat_payload("a", 0, 0.0, 0.9, now=1.0), received_at=100.0)
    assert table.observe(heartbeat_payload("b", 0, 0.0, 0.2, now=1.0), received_at=100.0)
    assert table.observe(heartbeat_payload("a", 1, 0.0, 0.4, now=2.0), received_at=108.0)
    assert not table.observe(heartbeat_payload("a", 1, 0.0, 0.1, now=2.0), received_at=109.0)
    assert table.alive(now=115.0) == ["a"]
    assert table.dead(now=115.0) == ["b"]
    assert table.least_loaded(now=105.0) == "b"
