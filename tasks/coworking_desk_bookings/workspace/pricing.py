from decimal import Decimal

HALF_DAY = Decimal("14.00")
FULL_DAY = Decimal("24.00")
FEATURE_SURCHARGE = {"monitor": Decimal("3.00"), "standing": Decimal("2.00"), "window": Decimal("1.50")}
MEMBER_DISCOUNT = Decimal("0.20")


def price(desk, slot, member=False):
    base = FULL_DAY if slot == "day" else HALF_DAY
    extra = sum((FEATURE_SURCHARGE.get(f, Decimal(0)) for f in desk.features), Decimal(0))
    total = base + extra
    if member:
        total -= (total * MEMBER_DISCOUNT).quantize(Decimal("0.01"))
    return total


def cancellation_fee(amount, hours_before):
    if hours_before >= 24:
        return Decimal("0.00")
    if hours_before >= 4:
        return (amount / 2).quantize(Decimal("0.01"))
    return amount
