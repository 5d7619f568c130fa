"""Transfer frames: SYNC marker, packet count, packets, CRC over everything after the marker."""
from telemetry import decode_packet, encode_packet
from vendor.bitframe import U16, Field, Layout, crc16_ccitt

SYNC = b"\x1a\xcf\xfc\x1d"
FRAME_HEAD = Layout("frame", [Field("count", U16)])
FRAME_TAIL = Layout("crc", [Field("crc", U16)])


class FrameError(ValueError):
    pass


def build_frame(packets):
    """packets: [(kind, sequence, seconds, values)]."""
    payload = FRAME_HEAD.pack({"count": len(packets)}) + b"".join(encode_packet(*p) for p in packets)
    return SYNC + payload + FRAME_TAIL.pack({"crc": crc16_ccitt(payload)})


def read_frame(frame):
    if not frame.startswith(SYNC):
        raise FrameError("missing sync marker")
    payload, tail = frame[len(SYNC):-FRAME_TAIL.size], frame[-FRAME_TAIL.size:]
    if crc16_ccitt(payload) != FRAME_TAIL.unpack(tail)["crc"]:
        raise FrameError("CRC mismatch")
    count = FRAME_HEAD.unpack(payload)["count"]
    offset, packets = FRAME_HEAD.size, []
    for _ in range(count):
        packet, offset = decode_packet(payload, offset)
        packets.append(packet)
    if offset != len(payload):
        raise FrameError(f"{len(payload) - offset} trailing bytes after {count} packets")
    return packets


def latest_by_kind(frames):
    latest = {}
    for frame in frames:
        for p in read_frame(frame):
            if p["kind"] not in latest or p["sequence"] > latest[p["kind"]]["sequence"]:
                latest[p["kind"]] = p
    return {k: latest[k]["values"] for k in sorted(latest)}
