"""Stored-value balances, in cents, for transit cards."""
import threading

from cards import check_card_id


class UnknownCard(KeyError):
    pass


class WalletBook:
    def __init__(self):
        self._balances = {}
        self._locks = {}
        self._registry_lock = threading.Lock()

    def open_card(self, card_id, cents=0):
        self._balances[check_card_id(card_id)] = cents

    def lock_for(self, card_id):
        """The lock that serialises balance changes of one card."""
        with self._registry_lock:
            lock = self._locks.get(card_id)
            if lock is None:
                # Stored, so every caller for this card gets the same lock.
                lock = self._locks[card_id] = threading.Lock()
            return lock

    def balance(self, card_id):
        try:
            return self._balances[card_id]
        except KeyError:
            raise UnknownCard(card_id) from None

    def set_balance(self, card_id, cents):
        if cents < 0:
            raise ValueError(f"balance of {card_id} cannot go negative ({cents})")
        self._balances[card_id] = cents

    def top_up(self, card_id, cents):
        if cents <= 0:
            raise ValueError("top-up must be positive")
        with self.lock_for(card_id):
            self.set_balance(card_id, self.balance(card_id) + cents)
