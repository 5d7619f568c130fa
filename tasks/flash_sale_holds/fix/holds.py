"""Cart holds: a unit is set aside for a shopper for a few minutes.

If the shopper checks out in time the unit is sold; otherwise the hold expires
and the unit goes back on sale for everyone else.
"""
import itertools
import threading


class HoldExpired(Exception):
    pass


class Hold:
    def __init__(self, hold_id, item, shopper):
        self.hold_id = hold_id
        self.item = item
        self.shopper = shopper
        self.timer = None


class HoldDesk:
    def __init__(self, stock, orders, ttl_seconds=300.0):
        self._stock = stock
        self._orders = orders
        self._ttl = ttl_seconds
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._active = {}
        self._expiry_listeners = []

    def on_expiry(self, listener):
        self._expiry_listeners.append(listener)

    def place_hold(self, item, shopper, ttl=None):
        self._stock.take(item)
        hold = Hold(next(self._ids), item, shopper)
        hold.timer = threading.Timer(self._ttl if ttl is None else ttl, self._expire, args=(hold,))
        hold.timer.daemon = True
        with self._lock:
            self._active[hold.hold_id] = hold
        hold.timer.start()
        return hold

    def _settle(self, hold):
        """Close the hold; True only for the one caller (checkout, abandon or expiry) that wins.

        Timer.cancel() does nothing once the timer has fired, so it cannot tell us
        whether the expiry already returned the unit.
        """
        with self._lock:
            return self._active.pop(hold.hold_id, None) is not None

    def checkout(self, hold):
        """Turn the hold into a purchase."""
        hold.timer.cancel()
        if not self._settle(hold):
            raise HoldExpired(f"hold {hold.hold_id} on {hold.item} has expired")
        self._orders.record(hold.item, hold.shopper)

    def abandon(self, hold):
        """The shopper emptied their cart: release the unit now."""
        hold.timer.cancel()
        if self._settle(hold):
            self._stock.put_back(hold.item)

    def active_holds(self):
        with self._lock:
            return sorted(self._active)

    def _expire(self, hold):
        if not self._settle(hold):
            return
        self._stock.put_back(hold.item)
        for listener in self._expiry_listeners:
            listener(hold)
