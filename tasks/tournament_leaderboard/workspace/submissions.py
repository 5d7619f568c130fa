"""Round submissions: each player may submit many times; only their best score counts."""

import re

from dataclasses import dataclass


@dataclass(frozen=True)
class Submission:
    player: str
    score: int
    submitted_at: int  # seconds since the round opened


@dataclass(frozen=True)
class Entry:
    player: str
    best: int
    reached_at: int


_LINE = re.compile(r"^(?P<player>[a-z0-9_]{2,20})\s+(?P<score>\d+)\s+@(?P<at>\d+)$")


def parse_feed(text):
    """Submissions from the judge's feed, one 'player score @seconds' per line; blank lines and # notes skipped."""
    subs = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = _LINE.match(line)
        if not match:
            raise ValueError(f"feed line {lineno} is not 'player score @seconds': {line!r}")
        subs.append(Submission(match["player"], int(match["score"]), int(match["at"])))
    return subs


def best_entries(submissions):
    """One Entry per player: their highest score and when they first reached it."""
    best = {}
    for sub in submissions:
        if sub.score < 0:
            raise ValueError(f"negative score from {sub.player}")
        current = best.get(sub.player)
        if current is None or sub.score > current.best or (sub.score == current.best and sub.submitted_at < current.reached_at):
            best[sub.player] = Entry(sub.player, sub.score, sub.submitted_at)
    return list(best.values())
