"""Turns a claim into a payout by running the standard rules plus the policy's riders."""
from dataclasses import dataclass

from vendor.rulebook import Engine, RuleSet, rule


@rule("category-limits", priority=20)
def apply_limits(facts):
    capped = 0
    for category, amount in facts["by_category"].items():
        limit = facts["policy"].limit_for(category)
        capped += amount if limit is None else min(amount, limit)
    facts["payable"] = capped
    return f"after limits {capped}"


@rule("deductible", priority=40)
def apply_deductible(facts):
    taken = min(facts["payable"], facts["policy"].deductible)
    facts["payable"] -= taken
    return f"deductible -{taken}"


@rule("zero-floor", priority=90)
def floor_at_zero(facts):
    facts["payable"] = max(0, facts["payable"])


STANDARD_RULES = RuleSet("standard", [apply_limits, apply_deductible, floor_at_zero])


@dataclass
class Settlement:
    claim_id: str
    claimed: int
    payable: int
    trace: list


class Adjuster:
    def __init__(self, policy):
        self.policy = policy
        self.rules = STANDARD_RULES.copy(f"policy {policy.number}")
        self.rules.extend(policy.rider_rules())

    def settle(self, claim):
        if claim.policy_number != self.policy.number:
            raise ValueError(f"claim {claim.claim_id} is not under policy {self.policy.number}")
        facts = {
            "policy": self.policy,
            "cause": claim.cause,
            "by_category": claim.by_category(),
            "payable": claim.total(),
        }
        outcome = Engine(self.rules).run(facts)
        return Settlement(claim.claim_id, claim.total(), facts["payable"], outcome.fired_names())


def settle_batch(policies, claims):
    """Settle claims against a {policy number: Policy} map; returns settlements in claim order."""
    adjusters = {}
    out = []
    for claim in claims:
        adjuster = adjusters.get(claim.policy_number)
        if adjuster is None:
            adjuster = adjusters[claim.policy_number] = Adjuster(policies[claim.policy_number])
        out.append(adjuster.settle(claim))
    return out
