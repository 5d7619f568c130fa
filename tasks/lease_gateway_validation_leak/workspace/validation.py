"""Request checks done by the gateway before a request reaches storage."""
import re

MAX_BODY_BYTES = 64 * 1024
_KEY = re.compile(r"^[a-z0-9][a-z0-9/_.-]{0,199}$")
METHODS = {"GET", "PUT", "DELETE"}


class Invalid(ValueError):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def check_key(key):
    if not isinstance(key, str) or not _KEY.match(key):
        raise Invalid("key", f"must match {_KEY.pattern}")
    if "//" in key or key.endswith("/"):
        raise Invalid("key", "empty path segment")


def check_body(method, body):
    if method == "PUT":
        if body is None:
            raise Invalid("body", "PUT needs a body")
        if len(body) > MAX_BODY_BYTES:
            raise Invalid("body", f"{len(body)} bytes is over {MAX_BODY_BYTES}")
    elif body:
        raise Invalid("body", f"{method} takes no body")


def validate(request):
    """Raise Invalid for the first problem found in `request`."""
    if request.method not in METHODS:
        raise Invalid("method", f"{request.method} is not one of {sorted(METHODS)}")
    check_key(request.key)
    check_body(request.method, request.body)
    if not request.tenant:
        raise Invalid("tenant", "missing")
