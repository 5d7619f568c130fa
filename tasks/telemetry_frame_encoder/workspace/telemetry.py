"""Encoding sensor readings for the uplink: a header frame, then a body frame."""
import struct
from dataclasses import dataclass

from buffers import BufferPool
from framing import FrameError, FrameWriter, read_frame

HEADER, BODY = 0x48, 0x42


@dataclass(frozen=True)
class Reading:
    device: str
    sensor: str
    value: float


def encode(pool: BufferPool, reading: Reading) -> bytes:
    with FrameWriter(pool, BODY) as body:
        body.field(1, reading.sensor.encode())
        body.field(2, struct.pack(">d", reading.value))
        with FrameWriter(pool, HEADER) as head:
            head.field(9, reading.device.encode())
            head.field(10, struct.pack(">H", body.length()))
            header = head.finish()
        payload = body.finish()
    return header + payload


def decode(data: bytes) -> Reading:
    kind, head, pos = read_frame(data)
    if kind != HEADER or 9 not in head or 10 not in head:
        raise FrameError("message does not start with a header frame")
    kind, body, _ = read_frame(data, pos)
    if kind != BODY or 1 not in body or 2 not in body:
        raise FrameError("header is not followed by a body frame")
    (declared,) = struct.unpack(">H", head[10])
    if declared != data[pos + 1]:
        raise FrameError(f"header announces a {declared}-byte body, body is {data[pos + 1]} bytes")
    (value,) = struct.unpack(">d", body[2])
    return Reading(head[9].decode(), body[1].decode(), value)
