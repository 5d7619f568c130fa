"""Artist radio: a station seeded by one artist that wanders to similar artists."""
from collections import deque

from shuffle import spread_shuffle


class SimilarityGraph:
    def __init__(self):
        self._edges = {}

    def link(self, a, b, weight):
        if not 0 < weight <= 1:
            raise ValueError("similarity weight must be in (0, 1]")
        self._edges.setdefault(a, {})[b] = weight
        self._edges.setdefault(b, {})[a] = weight

    def neighbours(self, artist, min_weight=0.0):
        edges = self._edges.get(artist, {})
        return sorted((b for b, w in edges.items() if w >= min_weight), key=lambda b: (-edges[b], b))

    def within(self, artist, hops, min_weight=0.5):
        """Artists reachable in at most `hops` steps over edges of at least `min_weight`, nearest first."""
        seen, order, frontier = {artist}, [artist], deque([(artist, 0)])
        while frontier:
            current, depth = frontier.popleft()
            if depth == hops:
                continue
            for n in self.neighbours(current, min_weight):
                if n not in seen:
                    seen.add(n)
                    order.append(n)
                    frontier.append((n, depth + 1))
        return order


def station(session, graph, seed_artist, length=5, hops=2):
    """Queue a station on `session`: tracks by the seed artist and its neighbours, spread and shuffled."""
    artists = graph.within(seed_artist, hops)
    pool = [t for a in artists for t in session.catalog.by_artist(a)]
    pool = session._allowed(pool)
    order = spread_shuffle(pool, session.rng, recent=session.history)[:length]
    session.queue = deque(order)
    return [t.track_id for t in order]
