"""A listener's session: the play queue, what was heard, and scrobbles for the royalty run."""
import random
from collections import deque

from shuffle import spread_shuffle

SCROBBLE_AFTER_SECONDS = 30


class ListeningSession:
    history = deque(maxlen=50)

    def __init__(self, user, catalog, seed=None, allow_explicit=True):
        self.user = user
        self.catalog = catalog
        self.rng = random.Random(seed)
        self.allow_explicit = allow_explicit
        self.queue = deque()
        self.scrobbles = []
        self.now_playing = None

    def _allowed(self, tracks):
        return [t for t in tracks if self.allow_explicit or not t.explicit]

    def shuffle_play(self, track_ids):
        tracks = self._allowed(self.catalog.playlist(track_ids))
        order = spread_shuffle(tracks, self.rng, recent=self.history)
        self.queue = deque(order)
        return [t.track_id for t in order]

    def play_next(self, listened_seconds=None):
        """Finish the current track after `listened_seconds` (all of it when None) and start the next."""
        if self.now_playing is not None:
            track = self.now_playing
            heard = track.seconds if listened_seconds is None else min(listened_seconds, track.seconds)
            self.history.append(track.track_id)
            if heard >= min(SCROBBLE_AFTER_SECONDS, track.seconds):
                self.scrobbles.append((self.user, track.track_id, heard))
        self.now_playing = self.queue.popleft() if self.queue else None
        return None if self.now_playing is None else self.now_playing.track_id

    def listen_through(self, skip_after=None):
        """Play the whole queue; tracks listed in skip_after are skipped after that many seconds."""
        skip_after = skip_after or {}
        started = self.play_next()
        while started is not None:
            started = self.play_next(skip_after.get(started))
        return list(self.scrobbles)

    def remaining_seconds(self):
        playing = 0 if self.now_playing is None else self.now_playing.seconds
        return playing + sum(t.seconds for t in self.queue)

    def enqueue_next(self, track_id):
        """'Play next': put a track at the front of the queue, unless it is filtered out."""
        track = self.catalog.get(track_id)
        if not self._allowed([track]):
            return False
        self.queue.appendleft(track)
        return True

    def recently_played(self, n=5):
        return list(self.history)[-n:][::-1]
