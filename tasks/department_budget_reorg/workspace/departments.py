"""Departments spend against their budget and book every expense in the company ledger."""
import copy
from dataclasses import dataclass, field
from decimal import Decimal

from ledger import Ledger


class OverBudget(Exception):
    pass


@dataclass
class SpendingPolicy:
    approvers: list[str]
    single_purchase_limit: Decimal


@dataclass
class Department:
    name: str
    ledger: Ledger
    budget: Decimal
    policy: SpendingPolicy
    cost_centers: list[str] = field(default_factory=list)
    spent: Decimal = Decimal(0)

    def spend(self, amount: Decimal, memo: str, approved_by: str) -> None:
        if approved_by not in self.policy.approvers:
            raise PermissionError(f"{approved_by} cannot approve spending for {self.name}")
        if amount > self.policy.single_purchase_limit:
            raise OverBudget(f"{amount} exceeds the single purchase limit of {self.name}")
        if self.spent + amount > self.budget:
            raise OverBudget(f"{self.name} has {self.budget - self.spent} left, asked for {amount}")
        self.spent += amount
        self.ledger.post("expenses", amount, self.name, memo)


def split_off(dept: Department, name: str, cost_centers: list[str], budget: Decimal) -> Department:
    """Carve a new department out of `dept`, inheriting its policy.

    The new department starts with a copy of the policy so each side can
    change approvers later without affecting the other.
    """
    moving = [c for c in cost_centers if c in dept.cost_centers]
    if moving != cost_centers:
        raise ValueError(f"{dept.name} does not own {sorted(set(cost_centers) - set(moving))}")
    if budget > dept.budget:
        raise ValueError("the new department cannot have more budget than its parent")
    new = copy.deepcopy(dept)
    new.name = name
    new.cost_centers = moving
    new.budget = budget
    new.spent = Decimal(0)
    dept.cost_centers = [c for c in dept.cost_centers if c not in moving]
    dept.budget -= budget
    return new
