"""Request signatures: receivers check `X-Signature: t=<unix>,v1=<hex hmac>` over "<t>.<body>"."""
import hashlib
import hmac

TOLERANCE_S = 300


class BadSignature(ValueError):
    pass


def sign(secret, body, timestamp):
    mac = hmac.new(secret.encode("utf-8"), f"{int(timestamp)}.".encode("ascii") + body, hashlib.sha256)
    return f"t={int(timestamp)},v1={mac.hexdigest()}"


def verify(secret, body, header, now):
    """What a receiver does; used by our own integration checks and the docs' example."""
    try:
        parts = dict(item.split("=", 1) for item in header.split(","))
        timestamp = int(parts["t"])
        given = parts["v1"]
    except (KeyError, ValueError):
        raise BadSignature("malformed signature header") from None
    if abs(now - timestamp) > TOLERANCE_S:
        raise BadSignature("signature timestamp outside the tolerance")
    expected = sign(secret, body, timestamp).split("v1=")[1]
    if not hmac.compare_digest(expected, given):
        raise BadSignature("signature does not match")
    return True
