"""Team balancing: suggest swaps that bring two lobbies' average ratings closer."""
from players import elo_update


def rating_gap(server, a, b):
    return abs(server.lobbies[a].average_rating() - server.lobbies[b].average_rating())


def best_swap(server, a, b):
    """The swap (player from a, player from b) that most reduces the rating gap, or None."""
    la, lb = server.lobbies[a], server.lobbies[b]
    current = rating_gap(server, a, b)
    best = None
    for pa in list(la.members):
        for pb in list(lb.members):
            delta = pa.rating - pb.rating
            sum_a = sum(p.rating for p in la.members) - delta
            sum_b = sum(p.rating for p in lb.members) + delta
            gap = abs(round(sum_a / len(la.members)) - round(sum_b / len(lb.members)))
            if gap < current and (best is None or gap < best[0]):
                best = (gap, pa, pb)
    return None if best is None else (best[1], best[2])


def play_match(server, winners_lobby, losers_lobby):
    """Every winner beats the loser in the same seat; returns the rating points moved."""
    winners = server.lobbies[winners_lobby].members
    losers = server.lobbies[losers_lobby].members
    return sum(elo_update(w, l) for w, l in zip(winners, losers))
