import threading
import time

from ledger import Ledger
from vintages import Batch, RegistryError, eligible


class InsufficientCredits(RegistryError):
    pass


class Registry:
    def __init__(self, ledger=None):
        self.ledger = ledger or Ledger()
        self._cond = threading.Condition()
        self._holdings = {}  # account -> list[Batch]
        self.wakeups = 0

    def open_account(self, account):
        with self._cond:
            if account in self._holdings:
                raise RegistryError(f"account {account} exists")
            self._holdings[account] = []

    def issue(self, account, batches):
        with self._cond:
            self._holdings[account].extend(batches)
            self.ledger.append("issue", account, len(batches))
            self._cond.notify_all()

    def balance(self, account, min_vintage=None):
        with self._cond:
            return self._count(account, min_vintage)

    def _count(self, account, min_vintage):
        return sum(1 for b in self._holdings[account] if eligible(b, min_vintage))

    def _take(self, account, tonnes, min_vintage):
        held = self._holdings[account]
        if self._count(account, min_vintage) < tonnes:
            raise InsufficientCredits(f"{account} holds fewer than {tonnes} eligible tonnes")
        taken = []
        for b in sorted(held, key=lambda b: (b.vintage, b.serial)):
            if len(taken) == tonnes:
                break
            if eligible(b, min_vintage):
                taken.append(b)
        for b in taken:
            held.remove(b)
        return taken

    def retire(self, account, tonnes, beneficiary, min_vintage=None, timeout=None):
        with self._cond:
            if self._count(account, min_vintage) < tonnes:
                self._cond.wait(timeout)
                self.wakeups += 1
            taken = self._take(account, tonnes, min_vintage)
            self.ledger.append("retire", account, tonnes, f"for {beneficiary}")
            return [b.serial for b in taken]

    def transfer(self, source, target, tonnes, min_vintage=None, timeout=None):
        with self._cond:
            if self._count(source, min_vintage) < tonnes:
                self._cond.wait(timeout)
                self.wakeups += 1
            taken = self._take(source, tonnes, min_vintage)
            self._holdings[target].extend(taken)
            self.ledger.append("transfer_out", source, tonnes, f"to {target}")
            self.ledger.append("transfer_in", target, tonnes, f"from {source}")
            self._cond.notify_all()
            return [b.serial for b in taken]

    def wait_for_wakeups(self, n, timeout=2.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._cond:
                if self.wakeups >= n:
                    return True
            time.sleep(0.01)
        return False


def make_batches(project, vintage, standard, start, count, prefix="CC"):
    from vintages import serial_range

    return [Batch(s, project, vintage, standard) for s in serial_range(prefix, start, count)]
