"""Path parameter converters: <name> (a segment), <int:name>, <slug:name>, <path:name> (the rest)."""
import re


class Converter:
    regex = r"[^/]+"

    def to_python(self, text):
        return text

    def to_url(self, value):
        return str(value)


class IntConverter(Converter):
    regex = r"\d+"

    def to_python(self, text):
        return int(text)


class SlugConverter(Converter):
    regex = r"[a-z0-9]+(?:-[a-z0-9]+)*"


class PathConverter(Converter):
    regex = r".+"


CONVERTERS = {"str": Converter, "int": IntConverter, "slug": SlugConverter, "path": PathConverter}
_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")


def compile_pattern(pattern):
    """(compiled regex, {name: converter}) for a route pattern such as /hooks/<slug:provider>."""
    if not pattern.startswith("/"):
        raise ValueError(f"route pattern must start with '/': {pattern!r}")
    converters = {}
    regex = ""
    pos = 0
    for m in _PARAM.finditer(pattern):
        regex += re.escape(pattern[pos : m.start()])
        kind, name = m.group(1) or "str", m.group(2)
        if kind not in CONVERTERS:
            raise ValueError(f"unknown converter {kind!r} in {pattern!r}")
        if name in converters:
            raise ValueError(f"parameter {name!r} twice in {pattern!r}")
        converters[name] = CONVERTERS[kind]()
        regex += f"(?P<{name}>{converters[name].regex})"
        pos = m.end()
    regex += re.escape(pattern[pos:])
    return re.compile(f"^{regex}$"), converters
