"""A double-entry ledger of account balances in cents, with a journal of every transfer."""
from transactions import Atomic


class LedgerError(Exception):
    pass


class InsufficientFunds(LedgerError):
    pass


class FrozenAccount(LedgerError):
    pass


class Ledger:
    def __init__(self, balances=None):
        self.balances = dict(balances or {})
        self.journal = []
        self.frozen = set()
        self.atomic = Atomic(self)

    def transfer(self, source, dest, cents, memo):
        if cents <= 0:
            raise ValueError(f"transfer amount must be positive, got {cents}")
        for account in (source, dest):
            if account in self.frozen:
                raise FrozenAccount(f"account {account} is frozen")
        if self.balances.get(source, 0) < cents:
            raise InsufficientFunds(f"{source} has {self.balances.get(source, 0)}, needs {cents}")
        self.balances[source] -= cents
        self.balances[dest] = self.balances.get(dest, 0) + cents
        self.journal.append((source, dest, cents, memo))

    def snapshot(self):
        return dict(self.balances), len(self.journal)

    def restore(self, snapshot):
        balances, journal_length = snapshot
        self.balances = dict(balances)
        del self.journal[journal_length:]
