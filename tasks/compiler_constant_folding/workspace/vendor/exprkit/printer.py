"""Print a tree back to source with the fewest parentheses."""
from .parser import BINARY


def to_source(node, parent_prec=0, right=False):
    if node.kind == "num":
        return str(node.value)
    if node.kind == "name":
        return node.value
    if node.kind == "call":
        return f"{node.value}({', '.join(to_source(c) for c in node.children)})"
    if node.value == "neg":
        return "-" + to_source(node.children[0], 30)
    prec = BINARY[node.value]
    text = f"{to_source(node.children[0], prec)} {node.value} {to_source(node.children[1], prec, True)}"
    if prec < parent_prec or (right and prec == parent_prec):
        return f"({text})"
    return text
