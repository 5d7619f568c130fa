"""API access tokens with an expiry.

All times inside the service are naive datetimes in UTC, taken from an injectable clock so tests can move time.
"""
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta


class UtcClock:
    def now(self) -> datetime:
        return datetime.utcnow()


@dataclass
class Token:
    token_id: str
    user: str
    scopes: tuple
    expires_at: datetime

    def is_live(self, now: datetime) -> bool:
        return now < self.expires_at


def issue(user: str, scopes, ttl: timedelta, clock) -> Token:
    if ttl <= timedelta(0):
        raise ValueError("token lifetime must be positive")
    return Token(secrets.token_hex(8), user, tuple(scopes), clock.now() + ttl)
