"""Patron accounts: who may borrow, and what blocks them."""
from dataclasses import dataclass, field

from fees import patron_balance_cents
from loans import can_borrow, checkout

BLOCK_AT_CENTS = 500
CARD_PREFIXES = {"A": "adult", "J": "junior", "S": "staff"}
JUNIOR_KINDS = ("book", "magazine")


class BorrowRefused(RuntimeError):
    pass


@dataclass
class Patron:
    card: str
    name: str
    returns: list = field(default_factory=list)
    paid_cents: int = 0

    @property
    def category(self):
        try:
            return CARD_PREFIXES[self.card[:1]]
        except KeyError:
            raise ValueError(f"unknown card type {self.card!r}") from None

    def owed_cents(self):
        return max(0, patron_balance_cents(self.returns) - self.paid_cents)

    def pay(self, cents):
        if cents <= 0:
            raise ValueError("a payment must be positive")
        self.paid_cents += min(cents, self.owed_cents())


def lend(patron, open_loans, barcode, kind, today):
    """A new loan for `patron`, or BorrowRefused with the reason the desk reads out."""
    if patron.owed_cents() >= BLOCK_AT_CENTS:
        raise BorrowRefused(f"{patron.name} owes {patron.owed_cents() / 100:.2f}")
    if patron.category == "junior" and kind not in JUNIOR_KINDS:
        raise BorrowRefused(f"junior cards cannot borrow a {kind}")
    if not can_borrow(open_loans, patron.card, kind):
        raise BorrowRefused(f"{patron.name} has reached the limit for {kind}s")
    return checkout(barcode, patron.card, kind, today)
