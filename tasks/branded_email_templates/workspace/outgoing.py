"""The outgoing form of a rendered message: headers, a wrapped plain-text body, and an outbox to queue it in."""
import base64
import textwrap
from dataclasses import dataclass, field


def encode_header(value: str) -> str:
    """RFC 2047 encoded-word for a header value that is not plain ASCII."""
    if value.isascii():
        return value
    return "=?utf-8?b?" + base64.b64encode(value.encode("utf-8")).decode("ascii") + "?="


def wrap_body(text: str, width: int = 72) -> str:
    """Wrap each paragraph to `width` columns; blank lines between paragraphs are kept."""
    paragraphs = text.split("\n\n")
    return "\n\n".join(textwrap.fill(p.replace("\n", " "), width=width, break_long_words=False) for p in paragraphs)


@dataclass(frozen=True)
class OutgoingEmail:
    headers: dict
    body: str

    def as_text(self) -> str:
        lines = [f"{k}: {v}" for k, v in self.headers.items()]
        return "\n".join(lines) + "\n\n" + self.body + "\n"


def build_email(message, sender, reply_to=None, unsubscribe=None) -> OutgoingEmail:
    headers = {"From": encode_header(str(sender)), "To": encode_header(str(message.to)),
               "Subject": encode_header(message.subject), "Content-Type": "text/plain; charset=utf-8"}
    if reply_to:
        headers["Reply-To"] = str(reply_to)
    if unsubscribe:
        headers["List-Unsubscribe"] = f"<{unsubscribe}>"
    return OutgoingEmail(headers, wrap_body(message.body))


@dataclass
class Outbox:
    queued: list = field(default_factory=list)

    def put(self, email: OutgoingEmail) -> None:
        self.queued.append(email)

    def drain(self) -> list:
        out, self.queued = self.queued, []
        return out
