import re

from .filters import FILTERS

_TOKEN = re.compile(r"({{.*?}}|{%.*?%})", re.S)


class TemplateError(ValueError):
    pass


def _lookup(context, dotted):
    value = context
    for part in dotted.split("."):
        if isinstance(value, dict):
            value = value.get(part)
        else:
            value = getattr(value, part, None)
        if value is None:
            return None
    return value


def _evaluate(expr, context):
    parts = [p.strip() for p in expr.split("|")]
    value = _lookup(context, parts[0]) if not parts[0].startswith('"') else parts[0].strip('"')
    for spec in parts[1:]:
        name, _, arg = spec.partition(":")
        if name not in FILTERS:
            raise TemplateError(f"unknown filter {name!r}")
        value = FILTERS[name](value, arg.strip('"')) if arg else FILTERS[name](value)
    return value


def _parse(tokens, until=()):
    """Nodes until one of the `until` tags: ("text", s) | ("var", expr) | ("if", expr, body, orelse) | ("for", name, expr, body)."""
    nodes = []
    while tokens:
        token = tokens.pop(0)
        if token.startswith("{{"):
            nodes.append(("var", token[2:-2].strip()))
        elif token.startswith("{%"):
            words = token[2:-2].split()
            if not words:
                raise TemplateError("empty tag")
            if words[0] in until:
                return nodes, words[0]
            if words[0] == "if":
                body, end = _parse(tokens, ("else", "endif"))
                orelse = []
                if end == "else":
                    orelse, end = _parse(tokens, ("endif",))
                if end != "endif":
                    raise TemplateError("unclosed if")
                nodes.append(("if", " ".join(words[1:]), body, orelse))
            elif words[0] == "for" and len(words) == 4 and words[2] == "in":
                body, end = _parse(tokens, ("endfor",))
                if end != "endfor":
                    raise TemplateError("unclosed for")
                nodes.append(("for", words[1], words[3], body))
            else:
                raise TemplateError(f"unknown tag {token}")
        else:
            nodes.append(("text", token))
    if until:
        return nodes, None
    return nodes, None


class Template:
    """Compiled once, rendered many times. render(context) reads the context and never changes it."""

    def __init__(self, source):
        self.source = source
        tokens = [t for t in _TOKEN.split(source) if t]
        self.nodes, leftover = _parse(tokens)
        if leftover is not None:
            raise TemplateError(f"unexpected {{% {leftover} %}}")

    def render(self, context):
        out = []
        self._render(self.nodes, context, out)
        return "".join(out)

    def _render(self, nodes, context, out):
        for node in nodes:
            kind = node[0]
            if kind == "text":
                out.append(node[1])
            elif kind == "var":
                value = _evaluate(node[1], context)
                out.append("" if value is None else str(value))
            elif kind == "if":
                negate = node[1].startswith("not ")
                truthy = bool(_evaluate(node[1][4:] if negate else node[1], context))
                self._render(node[2] if truthy != negate else node[3], context, out)
            elif kind == "for":
                for item in _evaluate(node[2], context) or ():
                    self._render(node[3], {**context, node[1]: item}, out)
