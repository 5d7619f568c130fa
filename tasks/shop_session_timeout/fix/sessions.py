"""Server-side web sessions with an idle timeout: a session lives as long as it keeps being used."""
import itertools
import time
from dataclasses import dataclass, field


@dataclass
class Session:
    session_id: str
    created_at: float
    last_seen: float
    user: str = None
    data: dict = field(default_factory=dict)


def _sequential_ids():
    counter = itertools.count(1)
    return lambda: f"s{next(counter):06d}"


class SessionStore:
    def __init__(self, idle_timeout, clock=time.monotonic, new_id=None):
        if idle_timeout <= 0:
            raise ValueError(f"idle_timeout must be positive, got {idle_timeout}")
        self._idle_timeout = idle_timeout
        self._clock = clock
        self._new_id = new_id or _sequential_ids()
        self._sessions = {}

    def __len__(self):
        return len(self._sessions)

    def create(self):
        now = self._clock()
        session = Session(self._new_id(), created_at=now, last_seen=now)
        self._sessions[session.session_id] = session
        return session

    def _expired(self, session, now):
        return now - session.last_seen >= self._idle_timeout

    def get(self, session_id):
        """Return the live session and mark it used, or None if unknown or timed out."""
        session = self._sessions.get(session_id)
        if session is None:
            return None
        now = self._clock()
        if self._expired(session, now):
            del self._sessions[session_id]
            return None
        session.last_seen = now
        return session

    def purge(self):
        """Drop timed-out sessions; return how many were removed."""
        now = self._clock()
        stale = [sid for sid, s in self._sessions.items() if self._expired(s, now)]
        for sid in stale:
            del self._sessions[sid]
        return len(stale)
