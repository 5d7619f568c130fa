"""Customer accounts as the pricing engine sees them."""

from dataclasses import dataclass

TIERS = ("none", "silver", "gold")


@dataclass(frozen=True)
class Customer:
    email: str
    tier: str = "none"

    def __post_init__(self):
        if self.tier not in TIERS:
            raise ValueError(f"unknown tier {self.tier!r}; expected one of {TIERS}")

    @property
    def is_member(self):
        return self.tier != "none"


GUEST = Customer(email="guest@example.invalid")
