"""Spool-file encoding of envelopes (JSON).

Text parts are stored as readable text so operators can inspect a stuck spool with ``less``; anything else is base64.
"""
import base64
import codecs
import json

from envelope import Envelope, charset_of, media_type


def _text_charset(content_type: str) -> str:
    charset = charset_of(content_type)
    try:
        codecs.lookup(charset)
    except LookupError:
        charset = "utf-8"   # unknown label: most unlabelled mail today is UTF-8
    return charset


def encode(env: Envelope) -> str:
    doc = {
        "sender": env.sender,
        "recipients": list(env.recipients),
        "subject": env.subject,
        "content_type": env.content_type,
        "checksum": env.checksum,
    }
    if media_type(env.content_type).startswith("text/"):
        charset = _text_charset(env.content_type)
        doc["charset"] = charset
        doc["text"] = env.body.decode(charset, errors="replace")
    else:
        doc["body_b64"] = base64.b64encode(env.body).decode("ascii")
    return json.dumps(doc, ensure_ascii=False, indent=1)


def decode(text: str) -> Envelope:
    doc = json.loads(text)
    if "text" in doc:
        body = doc["text"].encode("utf-8")
    else:
        body = base64.b64decode(doc["body_b64"], validate=True)
    return Envelope(doc["sender"], tuple(doc["recipients"]), doc["subject"], doc["content_type"], body, doc["checksum"])
