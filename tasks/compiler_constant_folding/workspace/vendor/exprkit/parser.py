"""A precedence-climbing parser for + - * / % with unary minus, parentheses and calls."""
import re

from .nodes import Node, call, name, num, op

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_]\w*)|(.))")
BINARY = {"+": 10, "-": 10, "*": 20, "/": 20, "%": 20}


class ParseError(ValueError):
    pass


def tokenize(text):
    out = []
    for number, ident, other in _TOKEN.findall(text):
        if number:
            out.append(("num", int(number)))
        elif ident:
            out.append(("name", ident))
        elif other.strip():
            out.append(("sym", other))
    out.append(("end", None))
    return out


class _Parser:
    def __init__(self, text):
        self.tokens = tokenize(text)
        self.pos = 0

    def peek(self):
        return self.tokens[self.pos]

    def take(self, kind=None, value=None):
        tok = self.tokens[self.pos]
        if (kind and tok[0] != kind) or (value is not None and tok[1] != value):
            raise ParseError(f"expected {value or kind}, found {tok[1]!r}")
        self.pos += 1
        return tok

    def expression(self, min_prec=0):
        left = self.unary()
        while True:
            kind, value = self.peek()
            prec = BINARY.get(value) if kind == "sym" else None
            if prec is None or prec < min_prec:
                return left
            self.take()
            right = self.expression(prec + 1)
            left = op(value, left, right)

    def unary(self):
        kind, value = self.peek()
        if kind == "sym" and value == "-":
            self.take()
            return op("neg", self.unary())
        return self.atom()

    def atom(self):
        kind, value = self.take()
        if kind == "num":
            return num(value)
        if kind == "name":
            if self.peek() == ("sym", "("):
                self.take()
                args = []
                if self.peek() != ("sym", ")"):
                    args.append(self.expression())
                    while self.peek() == ("sym", ","):
                        self.take()
                        args.append(self.expression())
                self.take("sym", ")")
                return call(value, *args)
            return name(value)
        if (kind, value) == ("sym", "("):
            inner = self.expression()
            self.take("sym", ")")
            return inner
        raise ParseError(f"unexpected {value!r}")


def parse(text):
    p = _Parser(text)
    tree = p.expression()
    p.take("end")
    return tree


__all__ = ["Node", "ParseError", "parse", "tokenize"]
