"""The pickup manifest the driver signs."""
from decimal import Decimal

from rates import shipment_cost
from shipment import Shipment


def manifest_line(s: Shipment) -> str:
    tracking = s.carrier_refs.get("tracking", "unbooked")
    return f"{s.shipment_id:<10} {tracking:<12} {len(s.parcels)} pcs {s.weight():>7.2f} kg  {s.destination}"


def manifest(shipments: list[Shipment]) -> str:
    return "\n".join(manifest_line(s) for s in shipments)


def pickup_cost(shipments: list[Shipment]) -> Decimal:
    """What the carriers will invoice for this pickup."""
    return sum((shipment_cost(s) for s in shipments), Decimal("0"))
