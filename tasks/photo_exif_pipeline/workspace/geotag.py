from bisect import bisect_left
from datetime import datetime, timedelta

from exif import ExifError, PhotoMeta


class TrackLog:
    """A GPS logger's CSV: 2026-05-01T10:00:00,48.85,2.35"""

    def __init__(self, points):
        self.points = sorted(points)
        self.times = [t for t, _, _ in self.points]

    @classmethod
    def load(cls, path):
        points = []
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, start=1):
                line = line.strip()
                if not line or line.startswith("time"):
                    continue
                try:
                    stamp, lat, lon = line.split(",")
                    points.append((datetime.fromisoformat(stamp), float(lat), float(lon)))
                except ValueError:
                    raise ExifError(f"track line {n}: {line!r}") from None
        return cls(points)

    def position_at(self, when, tolerance=timedelta(minutes=5)):
        if not self.points:
            return None
        i = bisect_left(self.times, when)
        best = None
        for j in (i - 1, i):
            if 0 <= j < len(self.points):
                t, lat, lon = self.points[j]
                gap = abs(t - when)
                if gap <= tolerance and (best is None or gap < best[0]):
                    best = (gap, (lat, lon))
        return best[1] if best else None


def tag(meta: PhotoMeta, log: TrackLog, clock_offset=timedelta(0)):
    if meta.gps is not None:
        return meta
    position = log.position_at(meta.taken + clock_offset)
    if position is None:
        return meta
    return PhotoMeta(meta.filename, meta.camera, meta.taken, meta.iso, meta.focal_mm, position)


def tag_all(records, log, clock_offset=timedelta(0)):
    return [tag(r, log, clock_offset) for r in records]
