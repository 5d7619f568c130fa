"""Compile a tiny assignment language: one `target = expression` per line."""
from interning import InternTable
from passes import eliminate_dead, propagate_constants
from vendor.exprkit import parse, to_source


class CompileError(ValueError):
    pass


def parse_program(text):
    statements = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        target, sep, expr = line.partition("=")
        target = target.strip()
        if not sep or not target.isidentifier():
            raise CompileError(f"line {lineno}: expected 'name = expression'")
        try:
            statements.append((target, parse(expr)))
        except ValueError as exc:
            raise CompileError(f"line {lineno}: {exc}") from None
    return statements


def compile_program(text, outputs, optimise=True):
    statements = parse_program(text)
    table = InternTable()
    statements = [(t, table.intern(tree)) for t, tree in statements]
    if optimise:
        statements = eliminate_dead(propagate_constants(statements), outputs)
    return [f"{t} = {to_source(tree)}" for t, tree in statements]


def evaluate(lines, inputs):
    """Run compiled lines; `input(k)` reads inputs[k]."""
    env = {}
    for line in lines:
        target, _, expr = line.partition(" = ")
        env[target] = _eval(parse(expr), env, inputs)
    return env


def _eval(node, env, inputs):
    if node.kind == "num":
        return node.value
    if node.kind == "name":
        return env[node.value]
    args = [_eval(c, env, inputs) for c in node.children]
    if node.kind == "call":
        if node.value == "input":
            return inputs[args[0]]
        return {"abs": abs, "max": max, "min": min}[node.value](*args)
    if node.value == "neg":
        return -args[0]
    a, b = args
    return {"+": a + b, "-": a - b, "*": a * b, "/": a // b, "%": a % b}[node.value]
