"""Stored webhook deliveries: what each provider sent us and what we did with it."""
import hashlib
import hmac
import itertools
from dataclasses import dataclass, field

SECRETS = {"stripe": b"whsec-stripe", "github": b"whsec-github", "shopify": b"whsec-shopify"}


class BadSignature(ValueError):
    pass


def sign(provider, body):
    return hmac.new(SECRETS[provider], body, hashlib.sha256).hexdigest()


def verify(provider, body, signature):
    if provider not in SECRETS:
        raise KeyError(provider)
    if not hmac.compare_digest(sign(provider, body), signature or ""):
        raise BadSignature(f"{provider}: signature mismatch")


@dataclass
class Delivery:
    delivery_id: int
    provider: str
    body: bytes
    status: str = "received"
    attempts: list = field(default_factory=list)


class DeliveryLog:
    def __init__(self):
        self._ids = itertools.count(1)
        self.by_id = {}

    def add(self, provider, body):
        delivery = Delivery(next(self._ids), provider, body)
        self.by_id[delivery.delivery_id] = delivery
        return delivery

    def counts(self):
        out = {}
        for d in self.by_id.values():
            out[d.status] = out.get(d.status, 0) + 1
        return dict(sorted(out.items()))
