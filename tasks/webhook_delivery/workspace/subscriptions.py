"""Who receives which events: each subscription names a URL, a secret and event-type patterns like 'invoice.*'."""
import fnmatch
from dataclasses import dataclass
from urllib.parse import urlparse


class SubscriptionError(ValueError):
    pass


@dataclass(frozen=True)
class Subscription:
    sub_id: str
    url: str
    secret: str
    patterns: tuple = ("*",)
    active: bool = True

    def wants(self, event_type):
        return self.active and any(fnmatch.fnmatchcase(event_type, p) for p in self.patterns)


def subscription(sub_id, url, secret, patterns=("*",)):
    parsed = urlparse(url)
    if parsed.scheme != "https" or not parsed.netloc:
        raise SubscriptionError(f"{sub_id}: webhooks are only sent to https URLs")
    if len(secret) < 16:
        raise SubscriptionError(f"{sub_id}: the signing secret must have at least 16 characters")
    return Subscription(sub_id, url, secret, tuple(patterns))


def matching(subscriptions, event_type):
    return [s for s in sorted(subscriptions, key=lambda s: s.sub_id) if s.wants(event_type)]
