"""Elo ratings, as the ladder has always used them."""
K_FACTOR = 32
PROVISIONAL_K = 48
PROVISIONAL_GAMES = 10
START_RATING = 1500


def expected_score(rating, opponent):
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def k_factor(games_played):
    return PROVISIONAL_K if games_played < PROVISIONAL_GAMES else K_FACTOR


def updated(rating, opponent, score, games_played):
    """New rating after one game; score is 1 for a win, 0.5 for a draw, 0 for a loss."""
    if score not in (0, 0.5, 1):
        raise ValueError(f"score must be 0, 0.5 or 1, not {score!r}")
    return round(rating + k_factor(games_played) * (score - expected_score(rating, opponent)))
