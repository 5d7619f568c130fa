"""Tokenizer and recursive-descent parser. Trees are tuples: ("num", x), ("ref", "A1"),
("range", "A1", "B3"), ("op", sym, left, right), ("neg", x), ("call", NAME, [args])."""
import re

_TOKENS = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Z]{1,3}[1-9][0-9]*(?::[A-Z]{1,3}[1-9][0-9]*)?)|([A-Z]+)(?=\()|(.))")


class FormulaError(ValueError):
    pass


def _tokens(text):
    out = []
    for number, ref, name, sym in _TOKENS.findall(text):
        if number:
            out.append(("num", float(number)))
        elif ref:
            out.append(("ref", ref))
        elif name:
            out.append(("name", name))
        elif sym.strip():
            out.append(("sym", sym))
    return out + [("end", None)]


def parse(formula):
    if not formula.startswith("="):
        raise FormulaError(f"formulas start with '=': {formula!r}")
    toks = _tokens(formula[1:].upper())
    pos = 0

    def peek():
        return toks[pos]

    def take(expected=None):
        nonlocal pos
        tok = toks[pos]
        if expected is not None and tok != ("sym", expected):
            raise FormulaError(f"expected {expected!r} in {formula!r}")
        pos += 1
        return tok

    def expr():
        node = term()
        while peek() in (("sym", "+"), ("sym", "-")):
            node = ("op", take()[1], node, term())
        return node

    def term():
        node = unary()
        while peek() in (("sym", "*"), ("sym", "/")):
            node = ("op", take()[1], node, unary())
        return node

    def unary():
        if peek() == ("sym", "-"):
            take()
            return ("neg", unary())
        return atom()

    def atom():
        kind, value = take()
        if kind == "num":
            return ("num", value)
        if kind == "ref":
            if ":" in value:
                a, b = value.split(":")
                return ("range", a, b)
            return ("ref", value)
        if kind == "name":
            take("(")
            args = []
            if peek() != ("sym", ")"):
                args.append(expr())
                while peek() == ("sym", ","):
                    take()
                    args.append(expr())
            take(")")
            return ("call", value, args)
        if (kind, value) == ("sym", "("):
            node = expr()
            take(")")
            return node
        raise FormulaError(f"unexpected {value!r} in {formula!r}")

    tree = expr()
    if peek()[0] != "end":
        raise FormulaError(f"trailing input in {formula!r}")
    return tree
