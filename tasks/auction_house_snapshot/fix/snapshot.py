"""Saving the sale mid-session (the clerk's laptop may be swapped) and picking it up again."""
from bidders import Bidder, Register
from lots import Bid, Lot
from vendor.snapkit import Registry, dumps, loads


def _dump_bidder(b):
    return {"paddle": b.paddle, "name": b.name, "credit_limit": b.credit_limit, "won": [list(w) for w in b.won]}


def _load_bidder(d):
    return Bidder(d["paddle"], d["name"], d["credit_limit"], [tuple(w) for w in d["won"]])


def _dump_bid(b):
    return {"bidder": b.bidder, "amount": b.amount, "proxy": b.proxy}


def _load_bid(d):
    return Bid(d["bidder"], d["amount"], d["proxy"])


def _dump_lot(lot):
    return {
        "number": lot.number,
        "title": lot.title,
        "reserve": lot.reserve,
        "opening": lot.opening,
        "bids": lot.bids,
        "closed": lot.closed,
        "proxies": [[bidder, maximum] for bidder, maximum in lot._proxies.values()],
    }


def _load_lot(d):
    lot = Lot(d["number"], d["title"], d["reserve"], d["opening"])
    lot.bids = list(d["bids"])
    lot.closed = d["closed"]
    lot._proxies = {bidder.paddle: (bidder, maximum) for bidder, maximum in d["proxies"]}
    return lot


REGISTRY = Registry()
REGISTRY.register(Bidder, "bidder", _dump_bidder, _load_bidder, by_ref=True)
REGISTRY.register(Bid, "bid", _dump_bid, _load_bid)
REGISTRY.register(Lot, "lot", _dump_lot, _load_lot)


class Sale:
    def __init__(self, name, register=None, lots=None):
        self.name = name
        self.register = register or Register()
        self.lots = lots or {}

    def add_lot(self, lot):
        self.lots[lot.number] = lot
        return lot

    def results(self):
        out = {}
        for number, lot in sorted(self.lots.items()):
            lead = lot.leading()
            sold = lot.closed and lead is not None and lead.amount >= lot.reserve
            out[number] = (lead.bidder.paddle, lead.amount) if sold else None
        return out


def save(sale):
    return dumps({
        "name": sale.name,
        "bidders": list(sale.register.bidders.values()),
        "lots": list(sale.lots.values()),
    }, REGISTRY)


def restore(text):
    data = loads(text, REGISTRY)
    register = Register()
    for b in data["bidders"]:
        register.bidders[b.paddle] = b
    return Sale(data["name"], register, {lot.number: lot for lot in data["lots"]})
