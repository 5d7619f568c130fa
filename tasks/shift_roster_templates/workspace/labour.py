"""Labour cost of a filled roster: base pay, weekend and late-hours premiums, and the weekly budget check."""
from shifts import DAYS

WEEKEND = {DAYS.index("Sat"), DAYS.index("Sun")}
LATE_FROM = 20 * 60
WEEKEND_PREMIUM = 0.25
LATE_PREMIUM = 0.15


class OverBudget(Exception):
    def __init__(self, cost, budget):
        super().__init__(f"roster costs {cost:.2f}, over the budget of {budget:.2f}")
        self.cost = cost
        self.budget = budget


def late_minutes(shift):
    return max(0, shift.end - max(shift.start, LATE_FROM))


def shift_cost(shift, hourly_rate):
    """Pay for one shift: the base rate, +25 % on weekends, +15 % for minutes after 20:00."""
    base = shift.hours * hourly_rate
    if shift.day in WEEKEND:
        base *= 1 + WEEKEND_PREMIUM
    base += late_minutes(shift) / 60 * hourly_rate * LATE_PREMIUM
    return round(base, 2)


def roster_cost(roster, rates, default_rate=15.0):
    """Total cost of the assigned shifts; open shifts cost nothing yet."""
    total = 0.0
    for shift, person in roster.assignments.items():
        total += shift_cost(shift, rates.get(person.name, default_rate))
    return round(total, 2)


def check_budget(roster, rates, budget):
    cost = roster_cost(roster, rates)
    if cost > budget:
        raise OverBudget(cost, budget)
    return cost


def cost_by_day(roster, rates, default_rate=15.0):
    out = {day: 0.0 for day in DAYS}
    for shift, person in roster.assignments.items():
        out[DAYS[shift.day]] += shift_cost(shift, rates.get(person.name, default_rate))
    return {day: round(value, 2) for day, value in out.items() if value}
