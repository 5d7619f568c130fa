"""The sign-up form: field-by-field errors for the page, then an account and an email confirmation token."""

import hashlib
import hmac
import re
import time
from dataclasses import dataclass, field

from accounts import AccountStore, WeakPassword
from charclasses import present
from usernames import InvalidUsername, validate

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.IGNORECASE)
TOKEN_TTL_S = 24 * 3600


@dataclass
class SignupResult:
    ok: bool
    errors: dict = field(default_factory=dict)
    username: str = ""
    token: str = ""


def strength(password):
    """The meter under the password field: length counts most, then the variety of characters."""
    score = min(len(password) // 4, 4) + len(present(password))
    if score >= 6:
        return "strong"
    return "fair" if score >= 4 else "weak"


def make_token(secret, username, email, now=None):
    expires = int((now if now is not None else time.time()) + TOKEN_TTL_S)
    mac = hmac.new(secret, f"{username}|{email}|{expires}".encode(), hashlib.sha256).hexdigest()[:32]
    return f"{expires}.{mac}"


def check_token(secret, username, email, token, now=None):
    expires, _, mac = token.partition(".")
    if not expires.isdigit() or int(expires) < (now if now is not None else time.time()):
        return False
    good = hmac.new(secret, f"{username}|{email}|{expires}".encode(), hashlib.sha256).hexdigest()[:32]
    return hmac.compare_digest(mac, good)


def sign_up(store: AccountStore, form: dict, secret: bytes, now=None) -> SignupResult:
    errors = {}
    try:
        username = validate(form.get("username", ""))
    except InvalidUsername as exc:
        errors["username"] = [str(exc)]
        username = ""
    email = form.get("email", "").strip()
    if not _EMAIL.match(email):
        errors["email"] = ["enter an email address like name@example.com"]
    if form.get("password", "") != form.get("confirm", ""):
        errors["confirm"] = ["the passwords do not match"]
    if errors:
        return SignupResult(False, errors)
    try:
        store.register(username, form["password"])
    except WeakPassword as exc:
        return SignupResult(False, {"password": exc.reasons})
    except ValueError as exc:
        return SignupResult(False, {"username": [str(exc)]})
    return SignupResult(True, {}, username, make_token(secret, username, email.lower(), now))
