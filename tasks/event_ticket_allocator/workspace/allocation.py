"""Ticket counts per tier, shared by all box-office threads."""
import threading


class LockTimeout(TimeoutError):
    pass


class NotEnoughTickets(Exception):
    def __init__(self, tier, wanted, left):
        super().__init__(f"{wanted} x {tier} requested, {left} left")
        self.tier, self.wanted, self.left = tier, wanted, left


class OrderLimitExceeded(Exception):
    pass


class TicketPool:
    def __init__(self, tiers, lock_timeout=0.5):
        self._tiers = dict(tiers)
        self._sold = {code: 0 for code in self._tiers}
        self._lock = threading.Lock()
        self._lock_timeout = lock_timeout

    def _acquire(self):
        if not self._lock.acquire(timeout=self._lock_timeout):
            raise LockTimeout("ticket pool is busy; try again")

    def remaining(self, code):
        self._acquire()
        try:
            return self._tiers[code].capacity - self._sold[code]
        finally:
            self._lock.release()

    def allocate(self, code, quantity):
        """Take `quantity` tickets of tier `code`; returns how many are left."""
        tier = self._tiers[code]
        if quantity > tier.max_per_order:
            raise OrderLimitExceeded(f"at most {tier.max_per_order} x {code} per order")
        self._acquire()
        left = tier.capacity - self._sold[code]
        if quantity > left:
            raise NotEnoughTickets(code, quantity, left)
        self._sold[code] += quantity
        self._lock.release()
        return left - quantity

    def give_back(self, code, quantity):
        self._acquire()
        try:
            if quantity > self._sold[code]:
                raise ValueError(f"cannot return {quantity} x {code}: only {self._sold[code]} sold")
            self._sold[code] -= quantity
        finally:
            self._lock.release()
