"""Prize allocation for the top ranks. Tied players each receive the prize for their shared rank."""

from rankings import standings
from submissions import best_entries

PRIZES_CENTS = {1: 50000, 2: 25000, 3: 10000}


def award(submissions, prizes=PRIZES_CENTS):
    table = standings(best_entries(submissions))
    return {s.player: prizes[s.rank] for s in table if s.rank in prizes}


def podium_text(submissions):
    lines = [f"{s.rank}. {s.player} ({s.score})" for s in standings(best_entries(submissions))]
    return "\n".join(lines[:5])
