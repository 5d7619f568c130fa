from dataclasses import dataclass
from decimal import Decimal


class PlanError(ValueError):
    pass


@dataclass(frozen=True)
class Plan:
    code: str
    name: str
    monthly: Decimal
    classes_included: int
    peak_access: bool = True


PLANS = {
    "OFF": Plan("OFF", "Off-peak", Decimal("24.00"), 0, peak_access=False),
    "STD": Plan("STD", "Standard", Decimal("39.00"), 4),
    "PLUS": Plan("PLUS", "Plus", Decimal("59.00"), 12),
}
CLASS_FEE = Decimal("8.50")
JOINING_FEE = Decimal("15.00")


def plan(code):
    try:
        return PLANS[code]
    except KeyError:
        raise PlanError(f"unknown plan {code!r}") from None


def price_list():
    return [(p.code, p.name, str(p.monthly), p.classes_included) for p in sorted(PLANS.values(), key=lambda p: p.monthly)]
