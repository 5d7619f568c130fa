"""Trip archive records: tinypack maps holding the van, the driver and the delta-encoded trace."""
from polyline import decode_deltas, encode_deltas
from traces import SCALE, Fix
from vendor.tinypack import pack, unpack

FORMAT_VERSION = 2


def encode_trip(van, driver, fixes):
    rows = [(f.t, *f.quantised()) for f in fixes]
    return pack({"v": FORMAT_VERSION, "van": van, "driver": driver, "n": len(rows), "trace": encode_deltas(rows)})


def decode_trip(blob):
    record = unpack(blob)
    if record.get("v") != FORMAT_VERSION:
        raise ValueError(f"unsupported trip record version {record.get('v')}")
    rows = decode_deltas(record["trace"], 3)
    if len(rows) != record["n"]:
        raise ValueError(f"trace holds {len(rows)} fixes, header says {record['n']}")
    fixes = [Fix(t, lat / SCALE, lon / SCALE) for t, lat, lon in rows]
    return record["van"], record["driver"], fixes


def archive_day(trips):
    """trips: [(van, driver, fixes)] -> one packed list of trip records."""
    return pack([encode_trip(*trip) for trip in trips])


def load_day(blob):
    return [decode_trip(b) for b in unpack(blob)]
