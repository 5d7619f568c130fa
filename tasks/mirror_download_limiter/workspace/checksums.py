"""Expected SHA-256 digests of the files we download, from the release manifest."""
import hashlib
import json

from mirrors import TransientError


class ChecksumMismatch(TransientError):
    """A mirror served different bytes; another mirror may have the right file."""


class Manifest:
    def __init__(self, digests=None):
        self._digests = {}
        for path, digest in (digests or {}).items():
            self.add(path, digest)

    def add(self, path, digest):
        digest = digest.lower()
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise ValueError(f"{path}: not a SHA-256 hex digest: {digest!r}")
        self._digests[path] = digest

    @classmethod
    def from_json(cls, text):
        return cls(json.loads(text))

    def verify(self, path, body):
        """Raise ChecksumMismatch unless `body` matches the manifest (paths not listed pass)."""
        expected = self._digests.get(path)
        if expected is None:
            return body
        data = body.encode("utf-8") if isinstance(body, str) else body
        actual = hashlib.sha256(data).hexdigest()
        if actual != expected:
            raise ChecksumMismatch(f"{path}: expected {expected[:12]}…, got {actual[:12]}…")
        return body
