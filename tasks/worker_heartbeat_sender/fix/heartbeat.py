"""Tells the coordinator this worker is alive, every few seconds, from a background thread."""
import itertools
import os
import threading
import time

from payload import heartbeat_payload
from ticker import Ticker


def _system_load():
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0


class HeartbeatSender:
    def __init__(self, transport, node_id, interval=5.0, load=_system_load):
        self._transport = transport
        self._node_id = node_id
        self._interval = interval
        self._load = load
        self._seq = itertools.count()
        self._started_at = time.monotonic()
        self._running = False
        self._ticker = None
        self._thread = None

    @property
    def running(self):
        return self._running

    def _beat(self):
        self._transport.send(heartbeat_payload(self._node_id, next(self._seq), self._started_at, self._load()))

    def start(self):
        if self._running:
            raise RuntimeError("heartbeat already started")
        self._running = True
        self._ticker = Ticker(self._interval, keep_going=self._running)
        self._thread = threading.Thread(target=self._ticker.run, args=(self._beat,), name="heartbeat", daemon=True)
        self._thread.start()

    def stop(self, timeout=2.0):
        """Stop sending; True once the heartbeat thread has exited."""
        if self._thread is None:
            return True
        self._running = False
        # The ticker holds its own copy of the flag, taken at start().
        self._ticker.keep_going = False
        self._ticker.wake()
        self._thread.join(timeout)
        return not self._thread.is_alive()
