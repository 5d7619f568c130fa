"""A knockout tournament with a capped field and a waitlist."""
from bracket import Bracket
from players import Player
from seeding import by_seed, first_round


class Tournament:
    def __init__(self, name: str, capacity: int):
        if capacity < 2:
            raise ValueError("a knockout needs at least two places")
        self.name = name
        self.capacity = capacity
        self._registrations: list[Player] = []

    def register(self, player: Player) -> None:
        if any(p.name == player.name for p in self._registrations):
            raise ValueError(f"{player.name} is already registered")
        self._registrations.append(player)

    def field(self) -> list[Player]:
        """Players with a place: the first `capacity` to register."""
        return self._registrations[: self.capacity]

    def waitlist(self) -> list[Player]:
        return self._registrations[self.capacity :]

    def check_in_sheet(self) -> list[str]:
        """Names in the order they registered, for the desk at the door."""
        return [p.name for p in self.field()]

    def seeds(self) -> list[str]:
        return [p.label() for p in by_seed(self.field())]

    def preview_pairings(self) -> list[str]:
        lines = []
        for a, b in first_round(self._registrations):
            lines.append(f"{a.name} - {b.name if b else 'bye'}")
        return lines

    def start(self) -> Bracket:
        """Close registration and draw the bracket for the players with a place."""
        return Bracket(first_round(self.field()))
