"""Lots under the hammer, with absentee (proxy) bids that the auctioneer executes on the bidder's behalf."""
from dataclasses import dataclass

INCREMENTS = [(1_000, 50), (5_000, 100), (20_000, 500), (None, 1_000)]


def increment(amount):
    for ceiling, step in INCREMENTS:
        if ceiling is None or amount < ceiling:
            return step


@dataclass(frozen=True)
class Bid:
    bidder: object
    amount: int
    proxy: bool = False


class BidRefused(ValueError):
    pass


class Lot:
    def __init__(self, number, title, reserve, opening):
        self.number = number
        self.title = title
        self.reserve = reserve
        self.opening = opening
        self.bids = []
        self.closed = False
        self._proxies = {}

    def leading(self):
        return self.bids[-1] if self.bids else None

    def asking(self):
        lead = self.leading()
        return self.opening if lead is None else lead.amount + increment(lead.amount)

    def leave_proxy(self, bidder, maximum):
        """An absentee bid: the house bids for `bidder` up to `maximum`, one increment at a time."""
        if maximum < self.opening:
            raise BidRefused(f"lot {self.number}: absentee maximum below the opening bid")
        self._proxies[bidder.paddle] = (bidder, maximum)
        self._run_proxies()

    def bid(self, bidder, amount):
        if self.closed:
            raise BidRefused(f"lot {self.number} is closed")
        if amount < self.asking():
            raise BidRefused(f"lot {self.number}: {amount} is below the asking {self.asking()}")
        if not bidder.can_afford(amount):
            raise BidRefused(f"paddle {bidder.paddle} is over its credit limit")
        self.bids.append(Bid(bidder, amount))
        self._run_proxies()

    def _run_proxies(self):
        while True:
            lead = self.leading()
            ask = self.asking()
            willing = [
                (maximum, paddle, bidder)
                for paddle, (bidder, maximum) in self._proxies.items()
                if maximum >= ask and (lead is None or lead.bidder is not bidder) and bidder.can_afford(ask)
            ]
            if not willing:
                return
            _, _, bidder = max(willing, key=lambda w: (w[0], -w[1]))
            self.bids.append(Bid(bidder, ask, proxy=True))

    def hammer(self):
        self.closed = True
        lead = self.leading()
        if lead is None or lead.amount < self.reserve:
            return None
        lead.bidder.won.append((self.number, lead.amount))
        return lead
