import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    account: str
    tonnes: int
    memo: str = ""


class Ledger:
    def __init__(self):
        self._lock = threading.Lock()
        self._entries = []

    def append(self, kind, account, tonnes, memo=""):
        with self._lock:
            entry = Entry(len(self._entries) + 1, kind, account, tonnes, memo)
            self._entries.append(entry)
            return entry

    def entries(self, account=None, kind=None):
        with self._lock:
            return [
                e for e in self._entries
                if (account is None or e.account == account) and (kind is None or e.kind == kind)
            ]

    def retired_total(self, account):
        return sum(e.tonnes for e in self.entries(account, "retire"))

    def statement(self, account):
        lines = []
        balance = 0
        for e in self.entries(account):
            balance += e.tonnes if e.kind in ("issue", "transfer_in") else -e.tonnes
            lines.append(f"{e.seq:04d} {e.kind:<12} {e.tonnes:>6} {balance:>7} {e.memo}".rstrip())
        return lines

    def totals_by_kind(self):
        totals = {}
        for e in self.entries():
            totals[e.kind] = totals.get(e.kind, 0) + e.tonnes
        return dict(sorted(totals.items()))

    def accounts(self):
        return sorted({e.account for e in self.entries()})
