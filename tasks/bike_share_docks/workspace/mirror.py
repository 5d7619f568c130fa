from feed import from_csv, to_csv


class FeedMirror:
    """Caches the operator's station feed on disk for the journey planner."""

    def __init__(self, path):
        self.path = path
        self.generation = 0

    def publish(self, stations):
        self.path.write_text(to_csv(stations), encoding="utf-8")
        self.generation += 1

    def stations(self):
        if not self.path.exists():
            return []
        return from_csv(self.path.read_text(encoding="utf-8"))

    def station(self, code):
        for s in self.stations():
            if s.code == code:
                return s
        raise KeyError(code)

    def changed_since(self, previous):
        before = {s.code: s for s in previous}
        changed = []
        for s in self.stations():
            old = before.get(s.code)
            if old is None or (old.bikes, old.ebikes, old.online) != (s.bikes, s.ebikes, s.online):
                changed.append(s.code)
        return sorted(changed)
