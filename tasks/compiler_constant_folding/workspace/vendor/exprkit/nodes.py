"""Expression tree nodes. A node is one of: num, name, op (binary or unary), call."""


class Node:
    __slots__ = ("kind", "value", "children")

    def __init__(self, kind, value, children=()):
        self.kind = kind
        self.value = value
        self.children = list(children)

    def key(self):
        """A structural key: equal for trees that print the same."""
        return (self.kind, self.value, tuple(c.key() for c in self.children))

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def __repr__(self):
        if self.children:
            return f"Node({self.kind!r}, {self.value!r}, {self.children!r})"
        return f"Node({self.kind!r}, {self.value!r})"


def num(value):
    return Node("num", value)


def name(ident):
    return Node("name", ident)


def op(symbol, *operands):
    return Node("op", symbol, operands)


def call(fn, *args):
    return Node("call", fn, args)
