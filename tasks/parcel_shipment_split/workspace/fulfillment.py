"""Operations the warehouse performs on shipments before pickup."""
import itertools
from dataclasses import replace

from shipment import Shipment

_tracking_numbers = itertools.count(700001)


def book(shipment: Shipment, carrier: str) -> str:
    tracking = f"{carrier[:3].upper()}{next(_tracking_numbers)}"
    shipment.carrier_refs.update(carrier=carrier, tracking=tracking)
    shipment.log(f"booked with {carrier} as {tracking}")
    return tracking


def split(shipment: Shipment, parcel_ids: set[str]) -> Shipment:
    """Move some parcels to a new shipment (e.g. one is oversized) and book it separately."""
    moving = [p for p in shipment.parcels if p.parcel_id in parcel_ids]
    if not moving or len(moving) == len(shipment.parcels):
        raise ValueError("a split must leave parcels in both shipments")
    shipment.parcels = [p for p in shipment.parcels if p.parcel_id not in parcel_ids]
    child = replace(shipment, shipment_id=f"{shipment.shipment_id}-2", parcels=moving)
    child.log(f"split from {shipment.shipment_id}")
    if "carrier" in shipment.carrier_refs:
        book(child, shipment.carrier_refs["carrier"])
    shipment.log(f"{len(moving)} parcel(s) moved to {child.shipment_id}")
    return child
