"""What a finished rental costs."""
import math
from dataclasses import dataclass

DAILY_CENTS = {"mini": 3_900, "compact": 4_900, "estate": 6_900, "van": 9_900}
KM_PER_DAY = 250
EXTRA_KM_CENTS = 35
LATE_GRACE_HOURS = 1
REFUEL_CENTS_PER_EIGHTH = 1_200


@dataclass(frozen=True)
class Invoice:
    contract_id: str
    days: int
    rental_cents: int
    extra_km_cents: int
    late_cents: int
    fuel_cents: int

    @property
    def total_cents(self):
        return self.rental_cents + self.extra_km_cents + self.late_cents + self.fuel_cents


def billable_days(hours):
    return max(1, math.ceil(hours / 24 - 1e-9))


def invoice(contract, category, fuel_eighths_missing=0):
    if contract.is_open:
        raise ValueError(f"{contract.contract_id} is still open")
    daily = DAILY_CENTS[category]
    planned = billable_days((contract.rented_hours() - contract.hours_late()))
    days = planned
    late = contract.hours_late()
    late_cents = 0
    if late > LATE_GRACE_HOURS:
        extra_days = billable_days(late)
        late_cents = extra_days * daily
        days += extra_days
    driven = contract.mileage_in - contract.mileage_out
    extra_km = max(driven - KM_PER_DAY * days, 0)
    return Invoice(contract.contract_id, days, planned * daily, extra_km * EXTRA_KM_CENTS, late_cents,
                   fuel_eighths_missing * REFUEL_CENTS_PER_EIGHTH)
