"""Usernames: what may be chosen, and the one spelling an account is stored under."""

import re
import unicodedata

RESERVED = frozenset({"admin", "root", "support", "security", "help", "system", "api", "www"})
_ALLOWED = re.compile(r"^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$")


class InvalidUsername(ValueError):
    pass


def normalize(username):
    """NFKC, trimmed and lower-cased, so `Maria`, ` maria` and the full-width `ｍａｒｉａ` are one account."""
    return unicodedata.normalize("NFKC", username).strip().lower()


def validate(username, min_length=3, max_length=32):
    name = normalize(username)
    if not min_length <= len(name) <= max_length:
        raise InvalidUsername(f"usernames are {min_length} to {max_length} characters")
    if not _ALLOWED.match(name):
        raise InvalidUsername("use letters, digits, and . _ - (not at the start or end)")
    if ".." in name or "__" in name:
        raise InvalidUsername("no repeated separators")
    if name in RESERVED:
        raise InvalidUsername(f"{name!r} is reserved")
    return name
