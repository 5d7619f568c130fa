"""rulebook: a small forward-chaining rules engine.

Rules are plain callables wrapped with a name, a priority and an optional
condition. An Engine runs a RuleSet over a mutable fact sheet and keeps a
trace of what fired, which callers can show to people.
"""
from .rules import Rule, RuleSet, rule
from .engine import Engine, Outcome, StopEvaluation

__all__ = ["Rule", "RuleSet", "rule", "Engine", "Outcome", "StopEvaluation"]
__version__ = "0.4.2"
