import base64
import json
import zlib


class PayloadError(ValueError):
    pass


def encode(attendee, event="CONF26"):
    body = {"e": event, "r": attendee.ref, "n": attendee.name, "role": attendee.role[0]}
    raw = json.dumps(body, separators=(",", ":"), sort_keys=True).encode()
    check = zlib.crc32(raw) & 0xFFFF
    return base64.urlsafe_b64encode(raw).decode().rstrip("=") + f".{check:04x}"


def decode(text):
    try:
        data, check = text.rsplit(".", 1)
        raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except ValueError:
        raise PayloadError("malformed badge code") from None
    if f"{zlib.crc32(raw) & 0xFFFF:04x}" != check:
        raise PayloadError("badge code checksum mismatch")
    return json.loads(raw)
