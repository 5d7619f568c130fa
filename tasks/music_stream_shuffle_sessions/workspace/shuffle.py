"""Listener-friendly shuffle: random, but no artist twice in a row and recently heard tracks pushed back."""


def spread_shuffle(tracks, rng, recent=()):
    """Order `tracks` randomly with two preferences: avoid repeating the previous artist, and put tracks
    heard recently (ids in `recent`) after the rest."""
    heard = set(recent)
    fresh = [t for t in tracks if t.track_id not in heard]
    stale = [t for t in tracks if t.track_id in heard]
    rng.shuffle(fresh)
    rng.shuffle(stale)
    return _spread(fresh) + _spread(stale)


def _spread(tracks):
    out, pending = [], list(tracks)
    while pending:
        previous = out[-1].artist if out else None
        pick = next((i for i, t in enumerate(pending) if t.artist != previous), 0)
        out.append(pending.pop(pick))
    return out


def artist_repeats(order):
    return sum(1 for a, b in zip(order, order[1:]) if a.artist == b.artist)
