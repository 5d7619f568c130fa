"""Promotions: percentage discounts by customer tier and by category."""
from dataclasses import dataclass

TIER_PERCENT = {"guest": 0, "member": 5, "gold": 10}


@dataclass(frozen=True)
class CategorySale:
    category: str
    percent: int
    badge: str = "sale"


def discount_percent(product, tier, sales):
    percent = TIER_PERCENT.get(tier, 0)
    for sale in sales:
        if sale.category == product["category"]:
            percent += sale.percent
    return min(percent, 50)


def apply_percent(cents, percent):
    return cents - (cents * percent + 50) // 100
