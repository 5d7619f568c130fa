"""Append-only archive of received frames (length-prefixed), plus the quick-look statistics read from it."""
import struct
from pathlib import Path

from decoder import decode_frame

LENGTH = struct.Struct("!I")


def append_frame(path: Path, frame_bytes: bytes) -> None:
    with open(path, "ab") as out:
        out.write(LENGTH.pack(len(frame_bytes)))
        out.write(frame_bytes)


def read_frames(path: Path) -> list:
    data = Path(path).read_bytes()
    frames, offset = [], 0
    while offset < len(data):
        (size,) = LENGTH.unpack_from(data, offset)
        offset += LENGTH.size
        frames.append(decode_frame(data[offset:offset + size]))
        offset += size
    return frames


def peak_velocity(frames, station_id: int) -> int:
    """Largest absolute sample of one station: the number the alerting rules look at."""
    return max((abs(s) for f in frames if f.station_id == station_id for s in f.samples), default=0)
