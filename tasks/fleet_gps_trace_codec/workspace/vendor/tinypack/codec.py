"""Each value is one type byte followed by its payload; lengths and ints are LEB128 varints."""
import struct

NONE, FALSE, TRUE, INT, NEG, FLOAT, STR, BYTES, LIST, MAP = range(10)


class PackError(ValueError):
    pass


def _varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _read_varint(data, pos):
    shift = result = 0
    while True:
        if pos >= len(data):
            raise PackError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def _pack(value, out):
    if value is None:
        out.append(NONE)
    elif value is True or value is False:
        out.append(TRUE if value else FALSE)
    elif isinstance(value, int):
        out.append(INT if value >= 0 else NEG)
        out += _varint(value if value >= 0 else -value - 1)
    elif isinstance(value, float):
        out.append(FLOAT)
        out += struct.pack("<d", value)
    elif isinstance(value, str):
        raw = value.encode("utf-8")
        out.append(STR)
        out += _varint(len(raw)) + raw
    elif isinstance(value, (bytes, bytearray)):
        out.append(BYTES)
        out += _varint(len(value)) + bytes(value)
    elif isinstance(value, (list, tuple)):
        out.append(LIST)
        out += _varint(len(value))
        for v in value:
            _pack(v, out)
    elif isinstance(value, dict):
        out.append(MAP)
        out += _varint(len(value))
        for k, v in value.items():
            if not isinstance(k, str):
                raise PackError("map keys must be strings")
            _pack(k, out)
            _pack(v, out)
    else:
        raise PackError(f"cannot pack {type(value).__name__}")


def _unpack(data, pos):
    if pos >= len(data):
        raise PackError("truncated value")
    tag = data[pos]
    pos += 1
    if tag == NONE:
        return None, pos
    if tag in (TRUE, FALSE):
        return tag == TRUE, pos
    if tag in (INT, NEG):
        n, pos = _read_varint(data, pos)
        return (n if tag == INT else -n - 1), pos
    if tag == FLOAT:
        return struct.unpack_from("<d", data, pos)[0], pos + 8
    if tag in (STR, BYTES):
        n, pos = _read_varint(data, pos)
        raw = bytes(data[pos:pos + n])
        return (raw.decode("utf-8") if tag == STR else raw), pos + n
    if tag == LIST:
        n, pos = _read_varint(data, pos)
        items = []
        for _ in range(n):
            item, pos = _unpack(data, pos)
            items.append(item)
        return items, pos
    if tag == MAP:
        n, pos = _read_varint(data, pos)
        out = {}
        for _ in range(n):
            k, pos = _unpack(data, pos)
            out[k], pos = _unpack(data, pos)
        return out, pos
    raise PackError(f"unknown type byte {tag}")


def pack(value):
    out = bytearray()
    _pack(value, out)
    return bytes(out)


def unpack(data):
    value, pos = _unpack(data, 0)
    if pos != len(data):
        raise PackError(f"{len(data) - pos} trailing bytes")
    return value
