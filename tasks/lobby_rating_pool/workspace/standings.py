"""The ladder table shown in the lobby."""


def table(lobby, limit=None):
    """(rank, player, rating, games) rows, best first; equal ratings share a rank."""
    ordered = sorted(lobby.ratings.items(), key=lambda item: (-item[1], item[0]))
    rows, rank, previous = [], 0, None
    for position, (player, rating) in enumerate(ordered, start=1):
        if rating != previous:
            rank, previous = position, rating
        rows.append((rank, player, rating, lobby.games.get(player, 0)))
    return rows[:limit] if limit else rows


def render(rows):
    return "\n".join(f"{rank:>3}. {player:<10} {rating:>5} ({games})" for rank, player, rating, games in rows)
