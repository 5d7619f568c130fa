"""The buyer's replenishment report: which SKUs to reorder and how many."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    sku: str
    reorder_point: int
    order_up_to: int


def report(stock, rules):
    """For each rule whose free stock is at or under its reorder point: units to order to reach order_up_to."""
    lines = []
    for rule in sorted(rules, key=lambda r: r.sku):
        on_hand, reserved = stock.levels().get(rule.sku, (0, 0))
        free = on_hand - reserved
        if free <= rule.reorder_point:
            lines.append((rule.sku, free, rule.order_up_to - free))
    return lines
