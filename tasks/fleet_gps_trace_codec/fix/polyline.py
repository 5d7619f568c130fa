"""Delta encoding of a fix sequence: each value is stored as the difference from the previous fix,
zigzag-mapped to an unsigned number and written as a varint, so small moves take one or two bytes."""


def zigzag(n):
    return (n << 1) if n >= 0 else ((-n << 1) - 1)


def unzigzag(z):
    return (z >> 1) ^ -(z & 1)


def write_varint(n, out):
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def read_varint(data, pos):
    shift = value = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def encode_deltas(rows):
    """rows: [(a, b, c), ...] of ints -> bytes."""
    out = bytearray()
    prev = None
    for row in rows:
        base = prev or (0,) * len(row)
        for value, before in zip(row, base):
            write_varint(zigzag(value - before), out)
        prev = row
    return bytes(out)


def decode_deltas(data, width):
    rows, pos, prev = [], 0, (0,) * width
    while pos < len(data):
        row = []
        for i in range(width):
            z, pos = read_varint(data, pos)
            row.append(prev[i] + unzigzag(z))
        prev = tuple(row)
        rows.append(prev)
    return rows
