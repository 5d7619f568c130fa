"""Shipping quotes for the checkout page and the bulk-order tool."""
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from rates import CENT, FUEL_SURCHARGE, line_price, zone_for
from vendor.memoize_lite import memoize


@dataclass(frozen=True)
class Lane:
    origin: str
    dest: str


@dataclass(frozen=True)
class Quote:
    lane: Lane
    reference: str
    level: str
    billable_kg: Decimal
    net: Decimal
    surcharge: Decimal

    @property
    def total(self):
        return self.net + self.surcharge


class QuoteService:
    """Prices parcels on a lane. Checkout re-quotes on every page view, so prices are memoized per service."""

    def __init__(self, surcharge=FUEL_SURCHARGE, cache_size=512):
        self.surcharge = Decimal(surcharge)
        self.priced = memoize(maxsize=cache_size)(self._price)
        self.requests = 0

    def _price(self, lane, parcel, level):
        zone = zone_for(lane.origin, lane.dest)
        net = line_price(parcel.billable_kg, level, zone)
        return net, (net * self.surcharge).quantize(CENT, rounding=ROUND_HALF_UP)

    def quote(self, lane, parcel, level="economy"):
        self.requests += 1
        net, surcharge = self.priced(lane, parcel, level)
        return Quote(lane, parcel.reference, level, parcel.billable_kg, net, surcharge)

    def quote_many(self, lane, parcels, level="economy"):
        return [self.quote(lane, parcel, level) for parcel in parcels]

    def order_total(self, lane, parcels, level="economy"):
        return sum((q.total for q in self.quote_many(lane, parcels, level)), Decimal("0.00"))

    def cache_info(self):
        return self.priced.cache_info()
