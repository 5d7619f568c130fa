"""exprkit: tokenize, parse and print arithmetic expressions.

    >>> tree = parse("a * (b + 2)")
    >>> to_source(tree)
    'a * (b + 2)'
"""
from .nodes import Node, call, name, num, op
from .parser import ParseError, parse
from .printer import to_source

__all__ = ["Node", "ParseError", "call", "name", "num", "op", "parse", "to_source"]
