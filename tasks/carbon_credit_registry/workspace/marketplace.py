from dataclasses import dataclass, field

from registry import InsufficientCredits, Registry
from vintages import RegistryError


@dataclass
class Listing:
    listing_id: str
    seller: str
    tonnes: int
    price_per_tonne: float
    min_vintage: int | None = None
    sold: int = 0

    @property
    def open_tonnes(self):
        return self.tonnes - self.sold


@dataclass
class Marketplace:
    registry: Registry
    listings: dict = field(default_factory=dict)
    trades: list = field(default_factory=list)
    fee_rate: float = 0.02

    def list_credits(self, listing_id, seller, tonnes, price, min_vintage=None):
        if listing_id in self.listings:
            raise RegistryError(f"listing {listing_id} exists")
        if self.registry.balance(seller, min_vintage) < tonnes:
            raise InsufficientCredits(f"{seller} cannot cover listing {listing_id}")
        self.listings[listing_id] = Listing(listing_id, seller, tonnes, price, min_vintage)
        return self.listings[listing_id]

    def buy(self, listing_id, buyer, tonnes, timeout=0.5):
        listing = self.listings[listing_id]
        if tonnes > listing.open_tonnes:
            raise RegistryError(f"listing {listing_id} has only {listing.open_tonnes} t left")
        serials = self.registry.transfer(listing.seller, buyer, tonnes, listing.min_vintage, timeout)
        listing.sold += tonnes
        gross = round(tonnes * listing.price_per_tonne, 2)
        fee = round(gross * self.fee_rate, 2)
        self.trades.append({"listing": listing_id, "buyer": buyer, "tonnes": tonnes, "gross": gross, "fee": fee})
        return serials

    def volume(self):
        return sum(t["tonnes"] for t in self.trades)

    def seller_proceeds(self, seller):
        return round(sum(t["gross"] - t["fee"] for t in self.trades if self.listings[t["listing"]].seller == seller), 2)
