"""Standard competition ranking ("1224"): tied players share a rank and the next rank skips accordingly."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    score: int


def standings(entries):
    ordered = sorted(entries, key=lambda e: (-e.best, e.player))
    table, rank, previous = [], 0, None
    for position, entry in enumerate(ordered, start=1):
        if entry.best != previous:
            rank = position
            previous = entry.best
        table.append(Standing(rank, entry.player, entry.best))
    return table
