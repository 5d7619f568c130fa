import re
from dataclasses import dataclass

_TS = re.compile(r"^(\d{2}):(\d{2}):(\d{2}),(\d{3})$")


class CueError(ValueError):
    pass


def parse_timestamp(text):
    m = _TS.match(text.strip())
    if not m:
        raise CueError(f"bad timestamp {text!r}")
    h, mnt, s, ms = (int(g) for g in m.groups())
    if mnt > 59 or s > 59:
        raise CueError(f"bad timestamp {text!r}")
    return ((h * 60 + mnt) * 60 + s) * 1000 + ms


def format_timestamp(ms):
    if ms < 0:
        raise CueError(f"negative time {ms}")
    s, ms = divmod(ms, 1000)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    return f"{h:02d}:{m:02d}:{s:02d},{ms:03d}"


@dataclass
class Cue:
    start: int
    end: int
    text: str

    def __post_init__(self):
        if self.end < self.start:
            raise CueError(f"cue ends before it starts: {self.start} > {self.end}")

    @property
    def duration(self):
        return self.end - self.start

    def overlaps(self, other):
        return self.start < other.end and other.start < self.end

    def chars_per_second(self):
        if self.duration == 0:
            return float("inf")
        return len(self.text.replace("\n", "")) / (self.duration / 1000)
