import csv
import io

from stations import Station

COLUMNS = ("code", "name", "lat", "lon", "capacity", "bikes", "ebikes", "online", "accepts_returns")


def parse_flag(text):
    value = text.strip().lower()
    if value in ("true", "1", "yes"):
        return True
    if value in ("false", "0", "no"):
        return False
    raise ValueError(f"bad flag {text!r}")


def to_csv(stations):
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for s in stations:
        writer.writerow([getattr(s, c) for c in COLUMNS])
    return buf.getvalue()


def from_csv(text):
    reader = csv.DictReader(io.StringIO(text))
    missing = set(COLUMNS) - set(reader.fieldnames or ())
    if missing:
        raise ValueError(f"feed lacks columns {sorted(missing)}")
    out = []
    for row in reader:
        out.append(Station(
            code=row["code"],
            name=row["name"],
            lat=float(row["lat"]),
            lon=float(row["lon"]),
            capacity=int(row["capacity"]),
            bikes=int(row["bikes"]),
            ebikes=int(row["ebikes"]),
            online=parse_flag(row["online"]),
            accepts_returns=parse_flag(row["accepts_returns"]),
        ))
    return out
