from dataclasses import dataclass, field
from datetime import date, timedelta


class PrescriptionError(ValueError):
    pass


@dataclass
class Prescription:
    rx_id: str
    patient: str
    drug: str
    units: int
    days_supply: int
    refills_left: int
    controlled: bool = False
    fills: list = field(default_factory=list)

    def __post_init__(self):
        if self.units <= 0 or self.days_supply <= 0:
            raise PrescriptionError(f"{self.rx_id}: units and days_supply must be positive")
        if self.refills_left < 0:
            raise PrescriptionError(f"{self.rx_id}: negative refills")

    def next_eligible(self):
        if not self.fills:
            return None
        last = self.fills[-1]
        early = max(1, int(self.days_supply * 0.2))
        return last + timedelta(days=self.days_supply - early)

    def check_refill(self, today: date):
        if self.refills_left == 0:
            raise PrescriptionError(f"{self.rx_id}: no refills left")
        eligible = self.next_eligible()
        if eligible is not None and today < eligible:
            raise PrescriptionError(f"{self.rx_id}: too early, eligible {eligible.isoformat()}")

    def record_fill(self, today: date):
        self.fills.append(today)
        self.refills_left -= 1


INTERACTIONS = {frozenset({"warfarin", "ibuprofen"}), frozenset({"sertraline", "tramadol"})}


def interacts(drug, other_drugs):
    return sorted(d for d in other_drugs if frozenset({drug, d}) in INTERACTIONS)
