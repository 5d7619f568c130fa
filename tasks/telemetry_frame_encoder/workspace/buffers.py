"""A pool of scratch buffers for the telemetry encoder.

The encoder runs on small gateways where allocating a fresh bytearray per
frame shows up in the garbage collector's pauses, so buffers are recycled.
"""


class BufferPool:
    def __init__(self):
        self._idle: list[bytearray] = []
        self.allocated = 0

    def acquire(self) -> bytearray:
        if self._idle:
            return self._idle.pop()
        self.allocated += 1
        return bytearray()

    def release(self, buf: bytearray) -> None:
        buf.clear()
        self._idle.append(buf)

    def idle(self) -> int:
        return len(self._idle)
