"""A lobby holds up to `capacity` players waiting for a match. Each lobby has its own lock."""
import itertools
import threading

_ids = itertools.count(1)


class LobbyFull(Exception):
    pass


class Lobby:
    def __init__(self, name, capacity=8, region="eu"):
        self.lobby_id = next(_ids)
        self.name = name
        self.capacity = capacity
        self.region = region
        self.members = []
        self.lock = threading.Lock()

    def _add(self, player):
        if len(self.members) >= self.capacity:
            raise LobbyFull(f"{self.name} is full")
        if player in self.members:
            raise ValueError(f"{player.handle} already in {self.name}")
        self.members.append(player)

    def _remove(self, player):
        self.members.remove(player)

    def join(self, player):
        with self.lock:
            self._add(player)

    def leave(self, player):
        with self.lock:
            self._remove(player)

    def average_rating(self):
        """Mean rating of the members, rounded; 0 for an empty lobby."""
        with self.lock:
            if not self.members:
                return 0
            return round(sum(p.rating for p in self.members) / len(self.members))

    def handles(self):
        """Member handles in alphabetical order."""
        with self.lock:
            return sorted(p.handle for p in self.members)
