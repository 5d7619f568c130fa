"""The matchmaking queue: players wait until enough others within their rating window are queued.
Each tick a waiting player's window widens, so nobody waits forever."""
from dataclasses import dataclass


@dataclass
class Waiting:
    player: object
    ticks: int = 0


class MatchQueue:
    def __init__(self, lobby_size=4, window=100, widen_per_tick=25, max_window=600):
        if lobby_size < 2:
            raise ValueError("a lobby needs at least two players")
        self.lobby_size = lobby_size
        self.window = window
        self.widen_per_tick = widen_per_tick
        self.max_window = max_window
        self._waiting = []

    def enqueue(self, player):
        if player.banned:
            raise ValueError(f"{player.handle} is banned")
        if any(w.player == player for w in self._waiting):
            raise ValueError(f"{player.handle} is already queued")
        self._waiting.append(Waiting(player))

    def _window_of(self, w):
        return min(self.max_window, self.window + w.ticks * self.widen_per_tick)

    def tick(self):
        """Form as many lobbies as possible, longest-waiting player first; returns their handles."""
        formed = []
        pool = sorted(self._waiting, key=lambda w: (-w.ticks, w.player.rating, w.player.handle))
        used = set()
        for anchor in pool:
            if anchor.player.handle in used:
                continue
            limit = self._window_of(anchor)
            group = [anchor] + [
                w for w in sorted(pool, key=lambda w: (abs(w.player.rating - anchor.player.rating), w.player.handle))
                if w is not anchor and w.player.handle not in used
                and abs(w.player.rating - anchor.player.rating) <= min(limit, self._window_of(w))
            ][: self.lobby_size - 1]
            if len(group) == self.lobby_size:
                formed.append([w.player.handle for w in group])
                used.update(w.player.handle for w in group)
        self._waiting = [w for w in self._waiting if w.player.handle not in used]
        for w in self._waiting:
            w.ticks += 1
        return formed

    def waiting(self):
        return sorted(w.player.handle for w in self._waiting)
