import re


class TopicPattern:
    """Dotted topics; `*` matches one segment and `#` any number of trailing segments."""

    def __init__(self, pattern):
        if not pattern or pattern.startswith(".") or pattern.endswith("."):
            raise ValueError(f"bad topic pattern {pattern!r}")
        self.pattern = pattern
        parts = []
        for i, seg in enumerate(pattern.split(".")):
            if seg == "#":
                if i != len(pattern.split(".")) - 1:
                    raise ValueError("'#' may only end a pattern")
                parts.append(r"(\..+)?" if parts else r".+")
                continue
            piece = r"[^.]+" if seg == "*" else re.escape(seg)
            parts.append(piece if not parts else r"\." + piece)
        self._rx = re.compile("^" + "".join(parts) + "$")

    def matches(self, topic):
        return bool(self._rx.match(topic))

    def __repr__(self):
        return f"TopicPattern({self.pattern!r})"
