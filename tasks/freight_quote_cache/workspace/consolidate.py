"""Pallet planning: parcels of one carton size stack together, a fixed number per pallet slot."""
import math
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

STACK_PER_SLOT = {(60, 40, 40): 6, (40, 30, 20): 12, (30, 20, 15): 24}
DEFAULT_STACK = 4


@dataclass(frozen=True)
class SlotPlan:
    carton: tuple
    parcels: int
    slots: int
    weight_kg: Decimal


def slot_plan(parcels):
    """One line per carton size, largest cartons first."""
    counts = Counter(parcels)
    weights = {}
    for parcel in parcels:
        weights[parcel] = weights.get(parcel, Decimal(0)) + Decimal(parcel.weight_kg)
    plan = []
    for carton, count in counts.items():
        per_slot = STACK_PER_SLOT.get(carton.dims(), DEFAULT_STACK)
        plan.append(SlotPlan(carton.dims(), count, math.ceil(count / per_slot), weights[carton]))
    return sorted(plan, key=lambda line: (-line.carton[0] * line.carton[1] * line.carton[2], line.carton))


def slots_needed(parcels):
    return sum(line.slots for line in slot_plan(parcels))
