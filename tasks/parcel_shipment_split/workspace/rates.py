"""Carrier rate cards: price per parcel by weight band, plus surcharges.

Carriers bill each parcel separately; parcels over the carrier's weight limit
are refused rather than priced, which is why oversized parcels get split off
into their own shipment with a freight carrier.
"""
from dataclasses import dataclass
from decimal import Decimal

from shipment import Parcel, Shipment


class OverWeight(ValueError):
    pass


@dataclass(frozen=True)
class RateCard:
    carrier: str
    bands: tuple[tuple[float, Decimal], ...]  # (max kg, price), ascending
    max_kg: float
    remote_surcharge: Decimal = Decimal("0")

    def parcel_price(self, parcel: Parcel) -> Decimal:
        if parcel.weight_kg > self.max_kg:
            raise OverWeight(f"{parcel.parcel_id} weighs {parcel.weight_kg} kg; {self.carrier} takes up to {self.max_kg} kg")
        for limit, price in self.bands:
            if parcel.weight_kg <= limit:
                return price
        return self.bands[-1][1]


CARDS = {
    "DHL": RateCard("DHL", ((2.0, Decimal("6.90")), (10.0, Decimal("11.50")), (31.5, Decimal("19.90"))), 31.5, Decimal("4.00")),
    "FREIGHT": RateCard("FREIGHT", ((1000.0, Decimal("89.00")),), 1000.0),
}
REMOTE_DESTINATIONS = {"Ajaccio", "Bastia"}


def shipment_cost(s: Shipment) -> Decimal:
    card = CARDS[s.carrier_refs.get("carrier", "DHL")]
    cost = sum((card.parcel_price(p) for p in s.parcels), Decimal("0"))
    if s.destination in REMOTE_DESTINATIONS:
        cost += card.remote_surcharge * len(s.parcels)
    return cost
