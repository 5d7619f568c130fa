"""Prescriptions as the pharmacy system holds them."""
import re
from dataclasses import dataclass
from datetime import date

FREQUENCIES = {"once daily": 1, "twice daily": 2, "three times daily": 3, "four times daily": 4, "at night": 1}
_DOSE = re.compile(r"^(?P<qty>\d+(?:\.\d+)?) (?P<form>tablet|capsule|ml)s? (?P<freq>.+)$")


@dataclass(frozen=True)
class Prescription:
    rx_id: str
    patient: str
    drug: str
    strength: str
    directions: str
    quantity: int
    repeats: int
    issued: date
    prescriber: str
    notes: str = ""

    def __post_init__(self):
        if self.quantity <= 0 or self.repeats < 0:
            raise ValueError(f"{self.rx_id}: quantity must be positive and repeats non-negative")
        parse_directions(self.directions)

    def daily_units(self):
        qty, _, per_day = parse_directions(self.directions)
        return qty * per_day

    def days_supply(self):
        return int(self.quantity // self.daily_units())


def parse_directions(text):
    m = _DOSE.match(text.strip().lower())
    if not m or m["freq"] not in FREQUENCIES:
        raise ValueError(f"cannot read directions {text!r}")
    return float(m["qty"]), m["form"], FREQUENCIES[m["freq"]]
