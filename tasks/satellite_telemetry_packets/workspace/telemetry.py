"""Engineering values <-> raw packet bodies."""
from packets import APIDS, HEADER, SCALES, body_layout


def to_raw(kind, values):
    layout = body_layout(APIDS[kind])[1]
    raw = {}
    for f in layout.fields:
        scale = SCALES[kind][f.name]
        counts = int(round(values[f.name] / scale))
        raw[f.name] = counts & ((1 << f.type.bits) - 1)
    return raw


def to_engineering(kind, raw):
    out = {}
    for name, counts in raw.items():
        scale = SCALES[kind][name]
        out[name] = counts if scale == 1 else round(counts * scale, 2)
    return out


def encode_packet(kind, sequence, seconds, values):
    apid = APIDS[kind]
    body = body_layout(apid)[1].pack(to_raw(kind, values))
    header = HEADER.pack({"apid": apid, "sequence": sequence, "seconds": seconds, "length": len(body)})
    return header + body


def decode_packet(data, offset=0):
    header = HEADER.unpack(data, offset)
    kind, layout = body_layout(header["apid"])
    start = offset + HEADER.size
    if header["length"] != layout.size:
        raise ValueError(f"{kind} packet {header['sequence']}: length {header['length']}, expected {layout.size}")
    body = layout.unpack(data, start)
    return {
        "kind": kind,
        "sequence": header["sequence"],
        "seconds": header["seconds"],
        "values": to_engineering(kind, body),
    }, start + layout.size
