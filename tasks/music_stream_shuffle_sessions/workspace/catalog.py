"""The streaming catalogue: tracks, albums and the artists behind them."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Track:
    track_id: str
    title: str
    artist: str
    album: str
    seconds: int
    explicit: bool = False

    def __post_init__(self):
        if self.seconds <= 0:
            raise ValueError(f"track {self.track_id}: duration must be positive")


@dataclass
class Catalog:
    tracks: dict = field(default_factory=dict)

    def add(self, track):
        if track.track_id in self.tracks:
            raise ValueError(f"duplicate track {track.track_id}")
        self.tracks[track.track_id] = track
        return track

    def get(self, track_id):
        try:
            return self.tracks[track_id]
        except KeyError:
            raise KeyError(f"unknown track {track_id}") from None

    def by_artist(self, artist):
        return sorted((t for t in self.tracks.values() if t.artist == artist), key=lambda t: t.track_id)

    def playlist(self, track_ids):
        return [self.get(t) for t in track_ids]


def load_catalog(rows):
    """rows: (id, title, artist, album, 'm:ss'[, 'E'])."""
    catalog = Catalog()
    for row in rows:
        tid, title, artist, album, length = row[:5]
        minutes, seconds = length.split(":")
        catalog.add(Track(tid, title, artist, album, int(minutes) * 60 + int(seconds), len(row) > 5 and row[5] == "E"))
    return catalog
