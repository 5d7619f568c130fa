"""Podcast episodes as uploaded by producers: a WAV-like file of 16-bit samples with a small header."""
import struct
from dataclasses import dataclass

MAGIC = b"PCM1"


@dataclass(frozen=True)
class Episode:
    show: str
    number: int
    title: str
    source: str

    @property
    def slug(self):
        return f"{self.show}-{self.number:03d}"


def write_source(path, samples, rate=22050):
    """Write samples in the upload format: magic, rate and count, then little-endian 16-bit samples."""
    with open(path, "wb") as fh:
        fh.write(MAGIC + struct.pack("<II", rate, len(samples)))
        fh.write(struct.pack(f"<{len(samples)}h", *samples))


def read_source(path):
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:4] != MAGIC:
        raise ValueError(f"{path}: not a PCM1 file")
    rate, count = struct.unpack("<II", data[4:12])
    samples = struct.unpack(f"<{count}h", data[12:12 + 2 * count])
    return rate, list(samples)
