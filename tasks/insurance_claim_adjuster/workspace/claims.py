"""Claims as submitted by policyholders, amounts in integer cents."""
from dataclasses import dataclass, field

CATEGORIES = ("structure", "contents", "vehicle", "liability", "water")


@dataclass(frozen=True)
class LineItem:
    category: str
    description: str
    amount: int

    def __post_init__(self):
        if self.category not in CATEGORIES:
            raise ValueError(f"unknown category {self.category!r}")
        if self.amount < 0:
            raise ValueError("line item amount must not be negative")


@dataclass
class Claim:
    claim_id: str
    policy_number: str
    items: list = field(default_factory=list)
    cause: str = "other"

    def add(self, category, description, amount):
        self.items.append(LineItem(category, description, amount))
        return self

    def total(self):
        return sum(i.amount for i in self.items)

    def by_category(self):
        out = {}
        for item in self.items:
            out[item.category] = out.get(item.category, 0) + item.amount
        return out
