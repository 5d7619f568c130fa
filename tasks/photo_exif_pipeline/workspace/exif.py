from dataclasses import dataclass
from datetime import datetime


class ExifError(ValueError):
    pass


@dataclass(frozen=True)
class PhotoMeta:
    filename: str
    camera: str
    taken: datetime
    iso: int
    focal_mm: float
    gps: tuple | None = None

    @property
    def stem(self):
        return self.filename.rsplit(".", 1)[0]


def parse_gps(text):
    try:
        lat, lon = (float(p) for p in text.split(","))
    except ValueError:
        raise ExifError(f"bad gps {text!r}") from None
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise ExifError(f"gps out of range {text!r}")
    return (lat, lon)


def parse_record(line):
    """One sidecar line: filename|camera|2026:05:01 10:22:03|iso|focal[|lat,lon]"""
    parts = line.rstrip("\n").split("|")
    if len(parts) not in (5, 6):
        raise ExifError(f"expected 5 or 6 fields: {line!r}")
    filename, camera, taken, iso, focal = parts[:5]
    try:
        when = datetime.strptime(taken, "%Y:%m:%d %H:%M:%S")
        meta = PhotoMeta(filename, camera.strip(), when, int(iso), float(focal))
    except ValueError as exc:
        raise ExifError(f"{filename}: {exc}") from None
    if len(parts) == 6 and parts[5]:
        meta = PhotoMeta(meta.filename, meta.camera, meta.taken, meta.iso, meta.focal_mm, parse_gps(parts[5]))
    return meta


def format_record(meta):
    fields = [meta.filename, meta.camera, meta.taken.strftime("%Y:%m:%d %H:%M:%S"), str(meta.iso), f"{meta.focal_mm:g}"]
    if meta.gps:
        fields.append(f"{meta.gps[0]},{meta.gps[1]}")
    return "|".join(fields)


def light_level(meta):
    if meta.iso <= 200:
        return "bright"
    if meta.iso <= 800:
        return "indoor"
    if meta.iso <= 3200:
        return "dim"
    return "night"
