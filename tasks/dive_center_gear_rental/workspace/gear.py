"""Rental gear: regulators, BCDs, computers and tanks, each with a service due date."""
from dataclasses import dataclass
from datetime import date

KINDS = ("regulator", "bcd", "computer", "tank")


@dataclass
class Item:
    tag: str
    kind: str
    size: str = "-"
    service_due: date = date(2099, 1, 1)
    dives: int = 0

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.tag}: unknown gear kind {self.kind}")

    def serviceable(self, day):
        """Whether the item may be rented out on `day` (before its service date)."""
        return day < self.service_due


def parse_inventory(lines):
    """'TAG KIND SIZE SERVICE-DUE' lines from the locker spreadsheet."""
    items = []
    for line in lines:
        tag, kind, size, due = line.split()
        items.append(Item(tag, kind, size, date.fromisoformat(due)))
    return items
