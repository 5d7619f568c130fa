"""Parcels as the packing station measures them."""
import re
from dataclasses import dataclass, field
from decimal import ROUND_UP, Decimal

VOLUMETRIC_DIVISOR = 5000  # cm³ per kg, the divisor our carriers agree on
_PARCEL = re.compile(r"^\s*(\d+)x(\d+)x(\d+)\s+(\d+(?:\.\d+)?)kg(?:\s+(\S+))?\s*$")


@dataclass(frozen=True)
class Parcel:
    """A packed parcel. Parcels compare equal when they use the same carton: slotting and stacking only see the box."""

    length_cm: int
    width_cm: int
    height_cm: int
    weight_kg: Decimal = field(compare=False)
    reference: str = field(default="", compare=False)

    def __post_init__(self):
        for name in ("length_cm", "width_cm", "height_cm"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        if Decimal(self.weight_kg) <= 0:
            raise ValueError("weight must be positive")

    @property
    def volume_cm3(self):
        return self.length_cm * self.width_cm * self.height_cm

    @property
    def volumetric_kg(self):
        return (Decimal(self.volume_cm3) / VOLUMETRIC_DIVISOR).quantize(Decimal("0.1"), rounding=ROUND_UP)

    @property
    def billable_kg(self):
        """Carriers bill the larger of the scale weight and the volumetric weight."""
        return max(Decimal(self.weight_kg).quantize(Decimal("0.1"), rounding=ROUND_UP), self.volumetric_kg)

    def dims(self):
        return (self.length_cm, self.width_cm, self.height_cm)


def parse_parcel(text):
    """'60x40x30 12.5kg REF-1' as typed at the packing station."""
    match = _PARCEL.match(text)
    if not match:
        raise ValueError(f"cannot read parcel {text!r}")
    l, w, h, kg, ref = match.groups()
    return Parcel(int(l), int(w), int(h), Decimal(kg), ref or "")
