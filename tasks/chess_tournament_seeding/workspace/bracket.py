"""Playing a knockout through: results per round and the pairings they produce."""
from players import Player


class ResultError(ValueError):
    pass


class Bracket:
    def __init__(self, first_round: list[tuple[Player, Player | None]]):
        self.rounds: list[list[tuple[Player, Player | None]]] = [first_round]
        self.winners: list[dict[str, Player]] = [{}]

    def current(self) -> list[tuple[Player, Player | None]]:
        return self.rounds[-1]

    def record(self, winner: Player) -> None:
        """Enter the result of a game in the current round (a bye wins itself)."""
        for a, b in self.current():
            if winner in (a, b):
                self.winners[-1][a.name] = winner
                return
        raise ResultError(f"{winner.name} has no game in round {len(self.rounds)}")

    def advance(self) -> list[tuple[Player, Player | None]]:
        """Pair the winners of the finished round, keeping bracket order (1st game's winner meets the 2nd's)."""
        pending = [a.name for a, b in self.current() if b is not None and a.name not in self.winners[-1]]
        if pending:
            raise ResultError(f"games still running: {', '.join(pending)}")
        done = [self.winners[-1].get(a.name, a) for a, _ in self.current()]
        if len(done) == 1:
            raise ResultError(f"{done[0].name} has already won")
        nxt = [(done[i], done[i + 1] if i + 1 < len(done) else None) for i in range(0, len(done), 2)]
        self.rounds.append(nxt)
        self.winners.append({})
        return nxt

    def champion(self) -> Player | None:
        last = self.current()
        if len(last) == 1 and last[0][0].name in self.winners[-1]:
            return self.winners[-1][last[0][0].name]
        return None
