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
    for entry in ordered:
        if entry.best != previous:
            rank += 1
            previous = entry.best
        table.append(Standing(rank, entry.player, entry.best))
    return table
