"""Which webhook failures are worth another attempt.

A receiver that is down or overloaded (5xx, 429, 408) may recover, so we try again. Any other 4xx means the request
itself is unacceptable (bad signature, unknown endpoint) and resending the same bytes cannot succeed.
"""

from dataclasses import dataclass

TRANSIENT_CLIENT_ERRORS = frozenset({408, 429})


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 4

    def __post_init__(self):
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def is_permanent(self, status):
        """True when a response with `status` must not be retried."""
        if status in TRANSIENT_CLIENT_ERRORS:
            return False
        return status >= 500

    def allows(self, attempt):
        return attempt < self.max_attempts
