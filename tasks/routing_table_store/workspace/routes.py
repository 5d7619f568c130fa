"""Validation of routing table entries."""
import re

_HOST = re.compile(r"^[a-z0-9.-]+:\d{1,5}$")


class InvalidRoute(ValueError):
    pass


def validate_route(prefix, backends):
    if not prefix.startswith("/"):
        raise InvalidRoute(f"route prefix must start with '/': {prefix!r}")
    if not backends:
        raise InvalidRoute(f"route {prefix} has no backends")
    for backend in backends:
        if not _HOST.match(backend):
            raise InvalidRoute(f"route {prefix}: bad backend {backend!r}")
    return prefix, tuple(backends)
