"""Account registration: validates the password, then stores only a salted hash."""

import hashlib
import hmac
import os

from policy import PasswordPolicy


class WeakPassword(ValueError):
    def __init__(self, reasons):
        super().__init__("; ".join(reasons))
        self.reasons = reasons


class AccountStore:
    ITERATIONS = 1000  # low on purpose: this store backs tests and local demos, not production

    def __init__(self, policy=None):
        self._policy = policy or PasswordPolicy()
        self._users = {}

    def register(self, username, password):
        if username in self._users:
            raise ValueError(f"username {username!r} is taken")
        reasons = self._policy.problems(password, username)
        if reasons:
            raise WeakPassword(reasons)
        salt = os.urandom(16)
        self._users[username] = (salt, self._hash(password, salt))

    def verify(self, username, password):
        if username not in self._users:
            return False
        salt, digest = self._users[username]
        return hmac.compare_digest(digest, self._hash(password, salt))

    def stored_record(self, username):
        return self._users[username]

    def _hash(self, password, salt):
        return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, self.ITERATIONS)
