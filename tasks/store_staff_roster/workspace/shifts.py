"""A shift: one employee, one role, whole hours within a day."""
from dataclasses import dataclass

ROLES = ("cashier", "stock", "supervisor")


@dataclass(frozen=True)
class Shift:
    employee: str
    role: str
    start: int  # hour of day, 0-23
    end: int  # exclusive, 1-24

    def __post_init__(self):
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r}")
        if not (0 <= self.start < self.end <= 24):
            raise ValueError(f"shift hours {self.start}-{self.end} are not within one day")

    @property
    def hours(self) -> int:
        return self.end - self.start

    def overlaps(self, other: "Shift") -> bool:
        return self.start < other.end and other.start < self.end
