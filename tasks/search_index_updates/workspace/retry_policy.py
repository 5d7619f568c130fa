"""When to retry a failed index update."""
from dataclasses import dataclass


class IndexUnavailable(Exception):
    """The search cluster is busy or restarting; the update may succeed later."""


class RejectedDocument(Exception):
    """The cluster refused the document itself; retrying cannot help."""


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 3

    def __post_init__(self):
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def should_retry(self, exc, attempts):
        return isinstance(exc, IndexUnavailable) and attempts < self.max_attempts
