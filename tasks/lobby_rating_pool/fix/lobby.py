"""The ladder lobby: records finished matches and keeps everyone's rating.

Rating updates run on a single-worker pool so they apply in the order results arrive, whichever thread reports them.
"""
import threading

from matches import parse_match
from ratings import START_RATING, updated
from vendor.taskpool import TaskPool


class Lobby:
    def __init__(self):
        self.ratings = {}
        self.games = {}
        self.history = []
        self._seen = set()
        self._lock = threading.Lock()
        self._pool = TaskPool(workers=1, name="ratings")

    def _apply(self, match):
        if match.match_id in self._seen:
            return False
        white, black = (self.ratings.get(p, START_RATING) for p in (match.white, match.black))
        ws, bs = match.scores()
        with self._lock:
            self.ratings[match.white] = updated(white, black, ws, self.games.get(match.white, 0))
            self.ratings[match.black] = updated(black, white, bs, self.games.get(match.black, 0))
            for player in (match.white, match.black):
                self.games[player] = self.games.get(player, 0) + 1
            self.history.append(match.match_id)
            self._seen.add(match.match_id)
        return True

    def record(self, record, timeout=5):
        """Record one reported match (the game-server callback); True unless it was already recorded."""
        match = parse_match(record)
        return self._pool.submit(self._apply, match).result(timeout)

    def settle_round(self, records):
        """A whole tournament round at once, in board order."""
        futures = [self._pool.submit(self._apply, parse_match(record)) for record in records]
        return [f.result() for f in futures]

    def rating(self, player):
        return self.ratings.get(player, START_RATING)

    def close(self, timeout=2):
        return self._pool.shutdown(wait=True, timeout=timeout)
