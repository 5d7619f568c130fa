"""Fares per fare class and what a change costs."""
FARE_CENTS = {"Y": 42_000, "B": 31_000, "M": 24_000, "K": 16_000}
CHANGE_FEE_CENTS = {"Y": 0, "B": 7_500, "M": 10_000, "K": 15_000}
FARE_ORDER = ("Y", "B", "M", "K")


class FareError(ValueError):
    pass


def fare(fare_class):
    if fare_class not in FARE_CENTS:
        raise FareError(f"unknown fare class {fare_class!r}")
    return FARE_CENTS[fare_class]


def change_cost(old_leg, new_leg, passengers):
    """Fee plus any fare difference, per booking: the fee is charged per passenger, a cheaper fare is not refunded."""
    fee = CHANGE_FEE_CENTS[old_leg.fare_class] * passengers
    difference = max(fare(new_leg.fare_class) - fare(old_leg.fare_class), 0) * passengers
    return fee + difference


def is_upgrade(old_class, new_class):
    return FARE_ORDER.index(new_class) < FARE_ORDER.index(old_class)
