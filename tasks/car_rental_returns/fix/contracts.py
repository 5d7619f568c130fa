"""Rental contracts: who has which car, from when, until when."""
import itertools
from dataclasses import dataclass, field
from datetime import datetime

_ids = itertools.count(1001)


def parse_time(text):
    try:
        return datetime.strptime(text, "%Y-%m-%d %H:%M")
    except ValueError:
        raise ValueError(f"times look like 2026-07-01 09:30, got {text!r}") from None


@dataclass(unsafe_hash=True)
class Contract:
    contract_id: str
    plate: str = field(hash=False)
    customer: str = field(hash=False)
    pickup: str = field(hash=False)
    due: str = field(hash=False)
    mileage_out: int = field(hash=False)
    returned_at: str = field(default=None, hash=False)
    mileage_in: int = field(default=None, hash=False)

    @classmethod
    def open(cls, plate, customer, pickup, due, mileage_out):
        if parse_time(due) <= parse_time(pickup):
            raise ValueError("a rental must end after it starts")
        return cls(f"RA{next(_ids)}", plate, customer, pickup, due, mileage_out)

    @property
    def is_open(self):
        return self.returned_at is None

    def rented_hours(self):
        end = parse_time(self.returned_at or self.due)
        return (end - parse_time(self.pickup)).total_seconds() / 3600

    def hours_late(self):
        if self.returned_at is None:
            return 0.0
        return max((parse_time(self.returned_at) - parse_time(self.due)).total_seconds() / 3600, 0.0)
