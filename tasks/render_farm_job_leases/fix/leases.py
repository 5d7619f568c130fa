"""Time-limited leases on render jobs.

A worker holds a job while its lease is live and keeps it live with heartbeats. A worker that stops
heartbeating loses the job once the lease runs out, and another worker may take it over.
"""
import itertools
from dataclasses import dataclass


class LeaseLost(Exception):
    """The lease behind a token is no longer held."""


@dataclass
class Lease:
    job_id: str
    worker: str
    token: int
    expires_at: float


class ManualClock:
    """A clock that moves only when told to; the render farm uses time.monotonic in production."""

    def __init__(self, start=0.0):
        self._now = float(start)

    def now(self):
        return self._now

    def advance(self, seconds):
        self._now += seconds


class LeaseTable:
    def __init__(self, clock, duration):
        if duration <= 0:
            raise ValueError(f"lease duration must be positive, got {duration}")
        self._clock = clock
        self._duration = duration
        self._current = {}
        self._by_token = {}
        self._tokens = itertools.count(1)

    def acquire(self, job_id, worker):
        """Take the lease on `job_id`, or return None while someone else's lease is live."""
        now = self._clock.now()
        held = self._current.get(job_id)
        if held is not None and held.expires_at > now:
            return None
        lease = Lease(job_id, worker, next(self._tokens), now + self._duration)
        self._current[job_id] = lease
        self._by_token[lease.token] = lease
        return lease

    def renew(self, token):
        lease = self._by_token.get(token)
        if lease is None:
            raise LeaseLost(f"unknown lease token {token}")
        now = self._clock.now()
        if lease.expires_at <= now or self._current.get(lease.job_id) is not lease:
            raise LeaseLost(f"lease token {token} has expired")
        lease.expires_at = now + self._duration
        return lease

    def check(self, token):
        """Return the live lease behind `token` or raise LeaseLost."""
        lease = self._by_token.get(token)
        if lease is None or lease.expires_at <= self._clock.now():
            raise LeaseLost(f"lease token {token} has expired")
        return lease

    def release(self, token):
        lease = self._by_token.pop(token, None)
        if lease is not None and self._current.get(lease.job_id) is lease:
            del self._current[lease.job_id]
