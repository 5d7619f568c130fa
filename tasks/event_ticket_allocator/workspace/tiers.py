"""Ticket tiers for an event and their capacities."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Tier:
    code: str
    capacity: int
    max_per_order: int = 6

    def __post_init__(self):
        if self.capacity < 0:
            raise ValueError(f"tier {self.code}: capacity must not be negative")
        if self.max_per_order < 1:
            raise ValueError(f"tier {self.code}: max_per_order must be at least 1")


def tier_table(*tiers):
    table = {}
    for tier in tiers:
        if tier.code in table:
            raise ValueError(f"duplicate tier {tier.code}")
        table[tier.code] = tier
    return table
