from geotag import TrackLog, tag_all
from pipeline import import_directory, lens_stats, rename_plan, untagged


class Catalog:
    def __init__(self):
        self.photos = {}

    def ingest(self, directory, camera=None):
        added = 0
        for meta in import_directory(directory, camera):
            if meta.filename not in self.photos:
                self.photos[meta.filename] = meta
                added += 1
        return added

    def report(self):
        photos = list(self.photos.values())
        return {
            "photos": len(photos),
            "cameras": sorted({p.camera for p in photos}),
            "untagged": untagged(photos),
            "lenses": lens_stats(photos),
        }

    def plan(self, prefix="IMG"):
        return rename_plan(self.photos.values(), prefix)

    def days(self):
        return sorted({p.taken.date().isoformat() for p in self.photos.values()})

    def geotag(self, track_path, clock_offset=None):
        from datetime import timedelta

        log = TrackLog.load(track_path)
        tagged = tag_all(self.photos.values(), log, clock_offset or timedelta(0))
        changed = [t.filename for t in tagged if t.gps != self.photos[t.filename].gps]
        for t in tagged:
            self.photos[t.filename] = t
        return sorted(changed)
