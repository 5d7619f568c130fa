"""The card provider's API as this service sees it (the test double the integration suite also uses)."""
import itertools


class ProviderTimeout(Exception):
    """The provider did not answer in time. The charge may or may not have gone through."""


class CardDeclined(Exception):
    pass


class CardProvider:
    def __init__(self, timeouts_after_charge=0, declined_cards=(), unavailable=False):
        self._ids = itertools.count(1)
        self.charges = []
        self.by_key = {}
        self.timeouts_after_charge = timeouts_after_charge
        self.declined_cards = set(declined_cards)
        self.requests = 0
        self.unavailable = unavailable

    def charge(self, card, amount_cents, idempotency_key):
        """Charge a card. A repeated idempotency key returns the first charge instead of charging again."""
        self.requests += 1
        if self.unavailable:
            raise ProviderTimeout("connect timed out")
        if card in self.declined_cards:
            raise CardDeclined(card)
        if idempotency_key in self.by_key:
            return self.by_key[idempotency_key]
        charge_id = f"ch_{next(self._ids)}"
        record = {"id": charge_id, "card": card, "amount": amount_cents, "key": idempotency_key}
        self.charges.append(record)
        self.by_key[idempotency_key] = record
        if self.timeouts_after_charge > 0:
            self.timeouts_after_charge -= 1
            raise ProviderTimeout("read timed out")
        return record

    def total_charged(self, card):
        return sum(c["amount"] for c in self.charges if c["card"] == card)
