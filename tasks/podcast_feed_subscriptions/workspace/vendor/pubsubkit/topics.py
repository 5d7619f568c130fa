import re

_SEGMENT = re.compile(r"^[a-z0-9_\-]+$|^\*$|^#$")


class TopicName(str):
    def __new__(cls, value):
        parts = value.split(".")
        for part in parts:
            if not _SEGMENT.match(part):
                raise ValueError(f"bad topic segment {part!r} in {value!r}")
        return super().__new__(cls, value)

    @property
    def parts(self):
        return self.split(".")


def match(pattern, topic):
    """'*' matches one segment, '#' matches the rest."""
    p = pattern.split(".")
    t = topic.split(".")
    for i, seg in enumerate(p):
        if seg == "#":
            return True
        if i >= len(t):
            return False
        if seg != "*" and seg != t[i]:
            return False
    return len(p) == len(t)
