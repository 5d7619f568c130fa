"""Warehouse layout: every bin location starts with its zone letter."""
from dataclasses import dataclass

ZONES = ("A", "B", "C", "F")  # F is the freezer, picked last


@dataclass(frozen=True)
class OrderLine:
    order_id: str
    sku: str
    location: str  # e.g. "B-12-03": zone, aisle, shelf
    quantity: int


def zone_of(location: str) -> str:
    zone = location.split("-", 1)[0].upper()
    if zone not in ZONES:
        raise ValueError(f"location {location!r} is not in a known zone")
    return zone


def walk_key(location: str) -> tuple[int, int]:
    """Sort key for a picker's walk through a zone: aisle, then shelf."""
    _, aisle, shelf = location.split("-")
    return int(aisle), int(shelf)
