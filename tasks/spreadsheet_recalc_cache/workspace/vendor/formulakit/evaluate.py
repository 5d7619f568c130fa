"""Evaluation of parsed formulas against a cell lookup."""
from .cells import expand_range
from .grammar import FormulaError


def _avg(values):
    return sum(values) / len(values) if values else 0.0


FUNCTIONS = {
    "SUM": lambda vals: float(sum(vals)),
    "MIN": lambda vals: float(min(vals)) if vals else 0.0,
    "MAX": lambda vals: float(max(vals)) if vals else 0.0,
    "AVERAGE": _avg,
    "COUNT": lambda vals: float(len(vals)),
}


def references(tree):
    kind = tree[0]
    if kind == "ref":
        return {tree[1]}
    if kind == "range":
        return set(expand_range(tree[1], tree[2]))
    if kind == "op":
        return references(tree[2]) | references(tree[3])
    if kind == "neg":
        return references(tree[1])
    if kind == "call":
        out = set()
        for arg in tree[2]:
            out |= references(arg)
        return out
    return set()


def evaluate(tree, lookup):
    kind = tree[0]
    if kind == "num":
        return tree[1]
    if kind == "ref":
        return lookup(tree[1])
    if kind == "range":
        return [lookup(r) for r in expand_range(tree[1], tree[2])]
    if kind == "neg":
        return -evaluate(tree[1], lookup)
    if kind == "op":
        a, b = evaluate(tree[2], lookup), evaluate(tree[3], lookup)
        if tree[1] == "/" and b == 0:
            raise FormulaError("division by zero")
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else 0}[tree[1]]
    if kind == "call":
        fn = FUNCTIONS.get(tree[1])
        if fn is None:
            raise FormulaError(f"unknown function {tree[1]}")
        values = []
        for arg in tree[2]:
            v = evaluate(arg, lookup)
            values.extend(v if isinstance(v, list) else [v])
        return fn(values)
    raise FormulaError(f"cannot evaluate {kind}")
