"""Players as the game server sees them."""
from dataclasses import dataclass


@dataclass
class Player:
    handle: str
    rating: int = 1200
    region: str = "eu"
    banned: bool = False

    def __hash__(self):
        return hash(self.handle)

    def __eq__(self, other):
        return isinstance(other, Player) and other.handle == self.handle


def expected_score(rating_a, rating_b):
    return 1 / (1 + 10 ** ((rating_b - rating_a) / 400))


def elo_update(winner, loser, k=32):
    """Update both ratings in place after a match; returns the points moved."""
    gain = round(k * (1 - expected_score(winner.rating, loser.rating)))
    winner.rating += gain
    loser.rating -= gain
    return gain
