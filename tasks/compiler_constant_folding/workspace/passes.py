"""Optimisation passes over statement lists [(target, tree), ...]."""
from vendor.exprkit import Node

PURE_CALLS = {"abs": abs, "max": max, "min": min}

_ARITH = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else None,
    "%": lambda a, b: a % b if b else None,
}


def substitute(node, known):
    """Replace names with their known constant values."""
    if node.kind == "name" and node.value in known:
        node.kind = "num"
        node.value = known[node.value]
        return node
    node.children = [substitute(c, known) for c in node.children]
    return node


def fold(node):
    """Evaluate operations whose operands are all constants."""
    children = [fold(c) for c in node.children]
    if node.kind == "op" and all(c.kind == "num" for c in children):
        if node.value == "neg":
            return Node("num", -children[0].value)
        result = _ARITH[node.value](children[0].value, children[1].value)
        if result is not None:
            return Node("num", result)
    if node.kind == "call" and node.value in PURE_CALLS and children and all(c.kind == "num" for c in children):
        return Node("num", PURE_CALLS[node.value](*(c.value for c in children)))
    if children != node.children:
        return Node(node.kind, node.value, children)
    return node


def propagate_constants(statements):
    """One forward pass: substitute what is known, fold, and learn targets that became constant."""
    known, out = {}, []
    for target, tree in statements:
        tree = fold(substitute(tree, known))
        if tree.kind == "num":
            known[target] = tree.value
        else:
            known.pop(target, None)
        out.append((target, tree))
    return out


def eliminate_dead(statements, outputs):
    """Drop assignments whose target is never read later and is not an output."""
    live, out = set(outputs), []
    for target, tree in reversed(statements):
        if target in live:
            live.discard(target)
            live.update(n.value for n in tree.walk() if n.kind == "name")
            out.append((target, tree))
    return out[::-1]
