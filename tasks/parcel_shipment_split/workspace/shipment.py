"""Shipments as handed to carriers."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Parcel:
    parcel_id: str
    weight_kg: float


@dataclass
class Shipment:
    shipment_id: str
    destination: str
    parcels: list[Parcel]
    carrier_refs: dict[str, str] = field(default_factory=dict)  # e.g. {"carrier": "DHL", "tracking": "..."}
    events: list[str] = field(default_factory=list)

    def weight(self) -> float:
        return round(sum(p.weight_kg for p in self.parcels), 3)

    def log(self, event: str) -> None:
        self.events.append(event)
