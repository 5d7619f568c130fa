"""Seeding and first-round pairings for a knockout event.

Players are seeded by rating, highest first; ties keep registration order.
Round one pairs seed 1 with the last seed, seed 2 with the second last, and
so on, so the strongest players meet as late as possible.
"""
from players import Player


def by_seed(entrants: list[Player]) -> list[Player]:
    """Entrants in seed order."""
    return sorted(entrants, key=lambda p: p.rating, reverse=True)


def first_round(entrants: list[Player]) -> list[tuple[Player, Player | None]]:
    """Pairings for round one; an odd field gives the top seed a bye (None)."""
    seeded = by_seed(entrants)
    pairs: list[tuple[Player, Player | None]] = []
    if len(seeded) % 2:
        pairs.append((seeded[0], None))
        seeded = seeded[1:]
    while seeded:
        pairs.append((seeded[0], seeded[-1]))
        seeded = seeded[1:-1]
    return pairs
