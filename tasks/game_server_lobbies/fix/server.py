"""Moving players between lobbies. Every move holds both lobbies' locks so no player is ever in two
lobbies, or in none, while the move happens."""
from lobby import LobbyFull


class MoveRefused(Exception):
    pass


def _ordered(a, b):
    return (a, b) if a.lobby_id < b.lobby_id else (b, a)


class LobbyServer:
    def __init__(self, check_move=None):
        self.lobbies = {}
        self.check_move = check_move
        self.moves = []

    def open_lobby(self, lobby):
        self.lobbies[lobby.name] = lobby
        return lobby

    def _check(self, player, source, target):
        if player.banned:
            raise MoveRefused(f"{player.handle} is banned")
        if source.region != target.region:
            raise MoveRefused(f"{target.name} is in another region")
        if self.check_move is not None:
            self.check_move(player, source, target)

    def transfer(self, player, source_name, target_name):
        source, target = self.lobbies[source_name], self.lobbies[target_name]
        first, second = _ordered(source, target)
        with first.lock:
            if source is first:
                if player not in source.members:
                    raise MoveRefused(f"{player.handle} is not in {source.name}")
                self._check(player, source, target)
            with second.lock:
                if source is second:
                    if player not in source.members:
                        raise MoveRefused(f"{player.handle} is not in {source.name}")
                    self._check(player, source, target)
                target._add(player)
                source._remove(player)
        self.moves.append((player.handle, source.name, target.name))

    def swap(self, a, lobby_a_name, b, lobby_b_name):
        """Exchange two players between lobbies in one step (used to balance teams)."""
        lobby_a, lobby_b = self.lobbies[lobby_a_name], self.lobbies[lobby_b_name]
        first, second = _ordered(lobby_a, lobby_b)
        with first.lock:
            self._check(a, lobby_a, lobby_b)
            with second.lock:
                if a not in lobby_a.members or b not in lobby_b.members:
                    raise MoveRefused("both players must still be in their lobbies")
                lobby_a._remove(a)
                lobby_b._remove(b)
                lobby_a._add(b)
                lobby_b._add(a)
        self.moves.append((f"{a.handle}<->{b.handle}", lobby_a.name, lobby_b.name))

    def census(self):
        return {name: lobby.handles() for name, lobby in sorted(self.lobbies.items())}

    def free_places(self):
        total = 0
        for lobby in self.lobbies.values():
            with lobby.lock:
                total += lobby.capacity - len(lobby.members)
        return total


__all__ = ["LobbyServer", "MoveRefused", "LobbyFull"]
