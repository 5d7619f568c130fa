"""Policies, their limits and optional riders."""
from dataclasses import dataclass, field

from vendor.rulebook import Rule, StopEvaluation


@dataclass(frozen=True)
class Rider:
    code: str
    copay_percent: int = 0
    excluded_causes: tuple = ()

    def to_rules(self):
        rules = []
        if self.excluded_causes:
            def exclude(facts, causes=self.excluded_causes, code=self.code):
                if facts["cause"] in causes:
                    facts["payable"] = 0
                    raise StopEvaluation(f"{code}: cause {facts['cause']} excluded")
            rules.append(Rule(f"{self.code}:exclusion", exclude, priority=5))
        if self.copay_percent:
            def copay(facts, pct=self.copay_percent, code=self.code):
                cut = facts["payable"] * pct // 100
                facts["payable"] -= cut
                return f"{code}: copay {pct}% (-{cut})"
            rules.append(Rule(f"{self.code}:copay", copay, priority=60))
        return rules


@dataclass(frozen=True)
class Policy:
    number: str
    deductible: int
    limits: dict = field(default_factory=dict)
    riders: tuple = ()

    def limit_for(self, category):
        return self.limits.get(category)

    def rider_rules(self):
        out = []
        for rider in self.riders:
            out.extend(rider.to_rules())
        return out
