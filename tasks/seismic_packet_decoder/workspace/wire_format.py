"""Binary frames sent by the seismometer field stations.

A frame is a fixed header followed by ``sample_count`` signed 16-bit velocity samples (micrometres per second).
All multi-byte fields are big-endian ("network order"), as the station firmware writes them.
"""
import struct

MAGIC = b"SEIS"
HEADER = struct.Struct("!4sHHIi")   # magic, station id, sample count, sequence number, first-sample time (ms)


class FrameError(ValueError):
    pass


def encode_frame(station_id: int, sequence: int, start_ms: int, samples) -> bytes:
    samples = list(samples)
    if not all(-32768 <= s <= 32767 for s in samples):
        raise FrameError("sample out of 16-bit range")
    header = HEADER.pack(MAGIC, station_id, len(samples), sequence, start_ms)
    return header + struct.pack(f"!{len(samples)}h", *samples)
