"""Mail envelopes as the relay handles them: raw body bytes plus a checksum taken at submission."""
import hashlib
from dataclasses import dataclass


def body_checksum(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def charset_of(content_type: str, default: str = "utf-8") -> str:
    """The ``charset`` parameter of a Content-Type header, lower-cased."""
    for param in content_type.split(";")[1:]:
        key, _, value = param.strip().partition("=")
        if key.strip().lower() == "charset" and value:
            return value.strip().lower()
    return default


@dataclass(frozen=True)
class Envelope:
    sender: str
    recipients: tuple
    subject: str
    content_type: str
    body: bytes
    checksum: str

    @classmethod
    def submit(cls, sender, recipients, subject, content_type, body: bytes) -> "Envelope":
        if not recipients:
            raise ValueError("an envelope needs at least one recipient")
        return cls(sender, tuple(recipients), subject, content_type, bytes(body), body_checksum(body))

    def intact(self) -> bool:
        return body_checksum(self.body) == self.checksum
