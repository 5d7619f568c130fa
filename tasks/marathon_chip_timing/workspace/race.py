from datetime import timedelta

from codec import dumps, loads
from results import ranking
from timing import Runner, TimingError, chip_time


class Race:
    def __init__(self, name, distance_km, gun_start):
        self.name = name
        self.distance_km = distance_km
        self.gun_start = gun_start
        self.runners = {}
        self._start_mat = {}

    def register(self, bib, name, category):
        if bib in self.runners:
            raise TimingError(f"bib {bib} already registered")
        self.runners[bib] = Runner(bib, name, category)

    def start_mat(self, bib, when):
        self._start_mat[bib] = when

    def checkpoint(self, bib, km, when):
        start = self._start_mat.get(bib, self.gun_start)
        self.runners[bib].record(km, when - start)

    def finish_mat(self, bib, when):
        start = self._start_mat.get(bib, self.gun_start)
        self.runners[bib].finish = chip_time(self.gun_start, start, when)

    def save(self, path):
        path.write_text(dumps(self.runners.values()), encoding="utf-8")

    def load(self, path):
        self.runners = {r.bib: r for r in loads(path.read_text(encoding="utf-8"))}

    def podium(self):
        return [r.bib for r in ranking(self.runners.values())[:3]]

    def dnf(self):
        return sorted(bib for bib, r in self.runners.items() if r.finish is None)

    def cutoff_breaches(self, km, limit: timedelta):
        return sorted(bib for bib, r in self.runners.items() if km in r.splits and r.splits[km] > limit)

    def started(self):
        return sorted(self._start_mat)

    def categories(self):
        return sorted({r.category for r in self.runners.values()})
