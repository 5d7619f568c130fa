"""The on-disk tile archive format.

    header:  b"TILE" | uint32 tile count
    index:   count x (uint8 zoom, uint32 x, uint32 y, uint64 offset, uint32 length)
    data:    the tile images, back to back
"""
import struct

MAGIC = b"TILE"
HEADER = struct.Struct("<4sI")
ENTRY = struct.Struct("<BIIQI")


class FormatError(ValueError):
    pass


def write_archive(path, tiles):
    """Write `tiles`, a dict of (zoom, x, y) -> bytes, to `path`."""
    keys = sorted(tiles)
    offset = HEADER.size + ENTRY.size * len(keys)
    index, blobs = [], []
    for zoom, x, y in keys:
        data = tiles[(zoom, x, y)]
        index.append(ENTRY.pack(zoom, x, y, offset, len(data)))
        blobs.append(data)
        offset += len(data)
    with open(path, "wb") as handle:
        handle.write(HEADER.pack(MAGIC, len(keys)))
        handle.write(b"".join(index))
        handle.write(b"".join(blobs))


def read_index(handle):
    """Return {(zoom, x, y): (offset, length)} from an archive opened for binary reading."""
    magic, count = HEADER.unpack(handle.read(HEADER.size))
    if magic != MAGIC:
        raise FormatError(f"not a tile archive (magic {magic!r})")
    raw = handle.read(ENTRY.size * count)
    if len(raw) != ENTRY.size * count:
        raise FormatError("tile index is truncated")
    index = {}
    for zoom, x, y, offset, length in ENTRY.iter_unpack(raw):
        index[(zoom, x, y)] = (offset, length)
    return index
