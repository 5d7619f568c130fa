"""Season permits and validated tickets that reduce or waive a charge."""
import re
from dataclasses import dataclass, field
from datetime import date

PLATE = re.compile(r"^[A-Z]{2}[0-9]{2}[A-Z]{3}$")


def normalise_plate(text):
    plate = re.sub(r"\s+", "", text).upper()
    if not PLATE.match(plate):
        raise ValueError(f"not a plate: {text!r}")
    return plate


@dataclass(frozen=True)
class Permit:
    plate: str
    valid_from: date
    valid_to: date
    discount_percent: int = 100

    def __post_init__(self):
        if self.valid_to < self.valid_from:
            raise ValueError(f"permit for {self.plate} ends before it starts")
        if not 0 < self.discount_percent <= 100:
            raise ValueError("discount must be 1-100 percent")

    def covers(self, plate, day):
        return plate == self.plate and self.valid_from <= day <= self.valid_to


@dataclass
class PermitBook:
    permits: list = field(default_factory=list)
    validations: dict = field(default_factory=dict)

    def issue(self, plate, valid_from, valid_to, discount_percent=100):
        permit = Permit(normalise_plate(plate), valid_from, valid_to, discount_percent)
        self.permits.append(permit)
        return permit

    def validate_ticket(self, plate, minutes_free):
        """A shop validates a ticket: the first `minutes_free` minutes of today's stay are free."""
        plate = normalise_plate(plate)
        self.validations[plate] = max(self.validations.get(plate, 0), minutes_free)

    def best_discount(self, plate, day):
        found = [p.discount_percent for p in self.permits if p.covers(plate, day)]
        return max(found, default=0)

    def free_minutes(self, plate):
        return self.validations.get(plate, 0)


def apply_discount(cents, percent):
    return cents - cents * percent // 100
