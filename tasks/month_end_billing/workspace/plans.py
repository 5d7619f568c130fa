"""The plans customers can subscribe to."""
from dataclasses import dataclass


class PlanError(KeyError):
    pass


@dataclass(frozen=True)
class Plan:
    code: str
    name: str
    months: int
    price_cents: int
    seats: int = 1

    @property
    def monthly_cents(self):
        return self.price_cents // self.months


PLANS = {
    p.code: p
    for p in (
        Plan("starter-m", "Starter monthly", 1, 1_200),
        Plan("team-m", "Team monthly", 1, 4_900, seats=10),
        Plan("team-q", "Team quarterly", 3, 13_500, seats=10),
        Plan("team-y", "Team yearly", 12, 49_000, seats=10),
        Plan("scale-y", "Scale yearly", 12, 190_000, seats=50),
    )
}


def plan(code):
    try:
        return PLANS[code]
    except KeyError:
        raise PlanError(f"no plan {code!r}; plans: {', '.join(sorted(PLANS))}") from None


def upgrade_path(code):
    """Plans with more seats or a longer term than `code`, cheapest first."""
    current = plan(code)
    better = [p for p in PLANS.values() if p.code != code and (p.seats > current.seats or p.months > current.months)]
    return sorted(better, key=lambda p: p.monthly_cents)


def cheapest():
    return min(PLANS.values(), key=lambda p: p.monthly_cents)
