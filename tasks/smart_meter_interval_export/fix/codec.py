"""The CSV the head-end system sends to billing: meter_id,timestamp,register_kwh."""
import csv
import io
from datetime import datetime

from meters import Reading

HEADER = ["meter_id", "timestamp", "register_kwh"]


def dump_readings(readings):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for r in readings:
        writer.writerow([r.meter_id, r.at.isoformat(timespec="seconds"), f"{r.register_kwh:.3f}"])
    return out.getvalue()


def load_readings(text):
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or rows[0] != HEADER:
        raise ValueError("not a meter readings file")
    readings = []
    for lineno, (meter_id, stamp, kwh) in enumerate(rows[1:], 2):
        try:
            at = datetime.fromisoformat(stamp)
            if at.tzinfo is None:
                raise ValueError(f"timestamp {stamp!r} has no UTC offset")
            readings.append(Reading(meter_id, at, float(kwh)))
        except ValueError as exc:
            raise ValueError(f"line {lineno}: {exc}") from None
    return readings


def split_by_meter(text):
    """One file per meter, each with the header, readings in their original order."""
    readings = load_readings(text)
    meters = {}
    for r in readings:
        meters.setdefault(r.meter_id, []).append(r)
    return {meter_id: dump_readings(rs) for meter_id, rs in sorted(meters.items())}


def merge_files(texts):
    """Join several files into one, ordered by meter and then by time."""
    readings = [r for text in texts for r in load_readings(text)]
    readings.sort(key=lambda r: (r.meter_id, r.at))
    return dump_readings(readings)
