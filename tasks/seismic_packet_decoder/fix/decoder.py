"""Server side: turns received bytes back into frames."""
import struct
from dataclasses import dataclass

from wire_format import HEADER, MAGIC, FrameError


@dataclass(frozen=True)
class Frame:
    station_id: int
    sequence: int
    start_ms: int
    samples: tuple


def decode_frame(data: bytes) -> Frame:
    if len(data) < HEADER.size:
        raise FrameError(f"frame too short: {len(data)} bytes")
    magic, station_id, count, sequence, start_ms = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise FrameError(f"bad magic {magic!r}")
    body = data[HEADER.size:]
    if len(body) != 2 * count:
        raise FrameError(f"expected {count} samples, got {len(body)} bytes")
    samples = struct.unpack(f"!{count}h", body)
    return Frame(station_id, sequence, start_ms, samples)
