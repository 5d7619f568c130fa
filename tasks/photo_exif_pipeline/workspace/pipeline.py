from collections import Counter

from exif import light_level
from readers import iter_directory, iter_records


def by_camera(records, camera):
    return (r for r in records if r.camera == camera)


def in_range(records, start, end):
    return (r for r in records if start <= r.taken < end)


def rename_plan(records, prefix="IMG"):
    plan = []
    for i, r in enumerate(sorted(records, key=lambda r: (r.taken, r.filename)), start=1):
        ext = r.filename.rsplit(".", 1)[-1].lower()
        plan.append((r.filename, f"{prefix}_{r.taken:%Y%m%d}_{i:04d}.{ext}"))
    return plan


def untagged(records):
    return [r.filename for r in records if r.gps is None]


def lens_stats(records):
    focal = Counter()
    for r in records:
        if r.focal_mm < 24:
            focal["wide"] += 1
        elif r.focal_mm <= 70:
            focal["normal"] += 1
        else:
            focal["tele"] += 1
    return dict(sorted(focal.items()))


def import_file(path, camera=None):
    records = iter_records(path)
    if camera:
        records = by_camera(records, camera)
    return list(records)


def import_directory(directory, camera=None):
    records = iter_directory(directory)
    if camera:
        records = by_camera(records, camera)
    return list(records)


def light_levels(records):
    return dict(sorted(Counter(light_level(r) for r in records).items()))
