"""Alert rules over the dashboard's figures, with firing/resolved transitions so a page goes out once."""
from dataclasses import dataclass, field

OPERATORS = {">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "<": lambda a, b: a < b}


@dataclass(frozen=True)
class AlertRule:
    name: str
    figure: str
    op: str
    threshold: float
    for_checks: int = 1

    def __post_init__(self):
        if self.op not in OPERATORS:
            raise ValueError(f"{self.name}: unknown operator {self.op!r}")
        if self.for_checks < 1:
            raise ValueError(f"{self.name}: for_checks must be at least 1")


@dataclass
class AlertState:
    breaches: int = 0
    firing: bool = False


@dataclass
class AlertManager:
    rules: list
    states: dict = field(default_factory=dict)
    notifications: list = field(default_factory=list)
    silenced: set = field(default_factory=set)

    def check(self, figures: dict) -> list:
        """Evaluate every rule once; returns the transitions as (rule, "firing" | "resolved")."""
        changes = []
        for rule in self.rules:
            if rule.figure not in figures:
                raise KeyError(f"{rule.name}: no figure {rule.figure!r}")
            state = self.states.setdefault(rule.name, AlertState())
            breached = OPERATORS[rule.op](figures[rule.figure], rule.threshold)
            state.breaches = state.breaches + 1 if breached else 0
            if breached and not state.firing and state.breaches >= rule.for_checks:
                state.firing = True
                changes.append((rule.name, "firing"))
            elif not breached and state.firing:
                state.firing = False
                changes.append((rule.name, "resolved"))
        self.notifications.extend(c for c in changes if c[0] not in self.silenced)
        return changes

    def silence(self, name: str) -> None:
        if name not in {r.name for r in self.rules}:
            raise KeyError(f"no alert rule {name!r}")
        self.silenced.add(name)

    def firing(self) -> list:
        return sorted(name for name, state in self.states.items() if state.firing)
