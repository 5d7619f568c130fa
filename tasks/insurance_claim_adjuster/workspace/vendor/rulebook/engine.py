"""Evaluation of a RuleSet over a fact sheet."""
from dataclasses import dataclass, field


class StopEvaluation(Exception):
    """Raised by an action to end evaluation early; the reason goes into the trace."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Outcome:
    facts: dict
    fired: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    stopped_by: str = None

    def fired_names(self):
        return [name for name, _ in self.fired]


class Engine:
    def __init__(self, ruleset, max_steps=500):
        self.ruleset = ruleset
        self.max_steps = max_steps

    def run(self, facts):
        outcome = Outcome(facts=facts)
        steps = 0
        for r in self.ruleset:
            steps += 1
            if steps > self.max_steps:
                raise RuntimeError(f"ruleset {self.ruleset.name!r} exceeded {self.max_steps} steps")
            if not r.applies(facts):
                outcome.skipped.append(r.name)
                continue
            try:
                note = r.action(facts)
            except StopEvaluation as stop:
                outcome.fired.append((r.name, stop.reason))
                outcome.stopped_by = r.name
                break
            outcome.fired.append((r.name, note))
        return outcome
