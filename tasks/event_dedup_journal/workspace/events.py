"""The payment provider's webhook events, checked before anything is applied."""
import re
from datetime import datetime

HANDLED_TYPES = ("payment.succeeded", "payment.refunded")
ACCOUNT = re.compile(r"^acct_[A-Za-z0-9]+$")


class InvalidEvent(ValueError):
    pass


def validate(event):
    """The event itself when it is one we apply; InvalidEvent (a ValueError) says why not."""
    if not isinstance(event, dict):
        raise InvalidEvent("an event must be a JSON object")
    if event.get("type") not in HANDLED_TYPES:
        raise InvalidEvent(f"unsupported event type {event.get('type')!r}")
    missing = [key for key in ("occurred_at", "account", "amount_cents") if key not in event]
    if missing:
        raise InvalidEvent(f"{event['type']} lacks {', '.join(missing)}")
    if not ACCOUNT.match(str(event["account"])):
        raise InvalidEvent(f"bad account id {event['account']!r}")
    amount = event["amount_cents"]
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise InvalidEvent(f"amount_cents must be a positive integer, not {amount!r}")
    try:
        datetime.strptime(event["occurred_at"], "%Y-%m-%dT%H:%M:%SZ")
    except (TypeError, ValueError):
        raise InvalidEvent(f"occurred_at {event['occurred_at']!r} is not a UTC timestamp") from None
    return event


def signed_amount(event):
    return -event["amount_cents"] if event["type"] == "payment.refunded" else event["amount_cents"]
