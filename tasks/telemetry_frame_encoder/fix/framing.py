"""Tag-length-value frames.

A frame is: kind (1 byte), body length (1 byte), then fields, each
tag (1 byte), length (1 byte), value.
"""
from buffers import BufferPool


class FrameError(ValueError):
    pass


class FrameWriter:
    """Builds one frame in a pooled buffer. Use as a context manager."""

    def __init__(self, pool: BufferPool, kind: int):
        self._pool = pool
        self.kind = kind
        self._buf: bytearray | None = None

    def __enter__(self) -> "FrameWriter":
        self._buf = self._pool.acquire()
        return self

    def field(self, tag: int, value: bytes) -> None:
        if len(value) > 255:
            raise FrameError(f"field {tag} is {len(value)} bytes; the limit is 255")
        self._buf += bytes([tag, len(value)]) + value

    def length(self) -> int:
        return len(self._buf)

    def finish(self) -> bytes:
        """The finished frame. The buffer goes back to the pool right away."""
        frame = bytes([self.kind, len(self._buf)]) + bytes(self._buf)
        self._pool.release(self._buf)
        self._buf = None
        return frame

    def __exit__(self, *exc) -> None:
        # Also covers a block that raised before finish().
        if self._buf is not None:
            self._pool.release(self._buf)
            self._buf = None


def read_frame(data: bytes, offset: int = 0) -> tuple[int, dict[int, bytes], int]:
    """Parse the frame at `offset`: (kind, fields by tag, offset after the frame)."""
    if len(data) < offset + 2:
        raise FrameError("truncated frame header")
    kind, size = data[offset], data[offset + 1]
    end = offset + 2 + size
    if len(data) < end:
        raise FrameError(f"frame body needs {size} bytes, {len(data) - offset - 2} left")
    fields, pos = {}, offset + 2
    while pos < end:
        tag, n = data[pos], data[pos + 1]
        fields[tag] = data[pos + 2 : pos + 2 + n]
        pos += 2 + n
    return kind, fields, end
