"""The carrier's rate card: a base price and a per-kilogram price per service level, scaled by zone."""
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
RATE_CARD = {
    "economy": {"base": Decimal("4.90"), "per_kg": Decimal("0.85")},
    "express": {"base": Decimal("9.50"), "per_kg": Decimal("1.40")},
}
ZONES = {
    ("DE", "DE"): 1,
    ("DE", "AT"): 2,
    ("DE", "FR"): 2,
    ("DE", "PL"): 2,
    ("DE", "ES"): 3,
    ("DE", "GB"): 3,
}
ZONE_FACTOR = {1: Decimal("1.00"), 2: Decimal("1.25"), 3: Decimal("1.60")}
FUEL_SURCHARGE = Decimal("0.085")


class UnknownLane(LookupError):
    pass


def zone_for(origin, dest):
    try:
        return ZONES[(origin, dest)]
    except KeyError:
        raise UnknownLane(f"no zone for {origin}->{dest}") from None


def line_price(billable_kg, level, zone):
    if level not in RATE_CARD:
        raise ValueError(f"unknown service level {level!r}")
    card = RATE_CARD[level]
    price = (card["base"] + card["per_kg"] * Decimal(billable_kg)) * ZONE_FACTOR[zone]
    return price.quantize(CENT, rounding=ROUND_HALF_UP)
