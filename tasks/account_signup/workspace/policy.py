"""Password policy for new accounts (NIST-style length first, plus the classes security asked for)."""

from dataclasses import dataclass

from charclasses import check

COMMON_PASSWORDS = frozenset({"password1", "qwerty123", "letmein", "iloveyou1", "welcome1"})


@dataclass(frozen=True)
class PasswordPolicy:
    min_length: int = 10
    required_classes: tuple = ("lowercase", "uppercase", "digit")

    def problems(self, password, username=""):
        """Human-readable reasons the password is refused; empty when it is acceptable."""
        found = []
        if len(password) < self.min_length:
            found.append(f"must be at least {self.min_length} characters")
        if not any(check(name, password) for name in self.required_classes):
            found.append("must contain " + ", ".join(self.required_classes))
        if password.lower() in COMMON_PASSWORDS:
            found.append("is too common")
        if username and username.lower() in password.lower():
            found.append("must not contain the username")
        return found
