"""The admin console's audit trail: who did what, written to a rotating file."""
import time

from formatting import format_entry


class AuditLogger:
    def __init__(self, sink, clock=time.time):
        self._sink = sink
        self._clock = clock
        self._stream = sink.stream
        self.entries_written = 0

    def log(self, actor, action, **fields):
        line = format_entry(self._clock(), actor, action, fields)
        self._stream.write(line)
        self._stream.flush()
        self.entries_written += 1
        self._sink.after_write(len(line.encode("utf-8")))

    def close(self):
        self._sink.close()
