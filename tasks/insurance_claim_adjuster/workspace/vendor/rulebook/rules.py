"""Rule objects and ordered collections of them."""


class Rule:
    __slots__ = ("name", "priority", "condition", "action")

    def __init__(self, name, action, priority=100, condition=None):
        if not callable(action):
            raise TypeError(f"rule {name!r}: action must be callable")
        self.name = name
        self.priority = priority
        self.condition = condition
        self.action = action

    def applies(self, facts):
        return self.condition is None or bool(self.condition(facts))

    def __repr__(self):
        return f"Rule({self.name!r}, priority={self.priority})"


def rule(name, priority=100, when=None):
    """Decorator form: @rule("deductible", priority=10)."""

    def wrap(fn):
        return Rule(name, fn, priority=priority, condition=when)

    return wrap


class RuleSet:
    """An ordered, named collection of rules. Lower priority numbers run first."""

    def __init__(self, name, rules=()):
        self.name = name
        self._rules = []
        for r in rules:
            self.add(r)

    def add(self, r):
        if not isinstance(r, Rule):
            raise TypeError(f"expected Rule, got {type(r).__name__}")
        self._rules.append(r)
        return r

    def extend(self, rules):
        for r in rules:
            self.add(r)
        return self

    def copy(self, name=None):
        return RuleSet(name or self.name, self._rules)

    def names(self):
        return [r.name for r in self.ordered()]

    def ordered(self):
        return sorted(self._rules, key=lambda r: r.priority)

    def __len__(self):
        return len(self._rules)

    def __iter__(self):
        return iter(self.ordered())
