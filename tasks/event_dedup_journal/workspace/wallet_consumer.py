"""Credits customer wallets from payment webhooks, exactly once per event."""
from events import signed_amount, validate
from fingerprint import fingerprint
from journal import Journal


class WalletConsumer:
    def __init__(self, journal: Journal):
        self.journal = journal
        self.balances = {}
        self.seen = set()
        for event in journal.replay():
            self._apply(event)

    def _apply(self, event: dict) -> None:
        self.seen.add(fingerprint(event))
        account = event["account"]
        self.balances[account] = self.balances.get(account, 0) + signed_amount(event)

    def handle(self, event: dict) -> bool:
        """Applies a delivery; returns False when it is a redelivery of an applied event."""
        validate(event)
        if fingerprint(event) in self.seen:
            return False
        self.journal.append(event)
        self._apply(event)
        return True
