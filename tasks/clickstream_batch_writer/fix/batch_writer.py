"""Buffers clicks and writes them to a sink in batches from a background thread.

Request handlers call record(), which only appends to a buffer. The writer
thread drains the buffer every `interval` seconds, or sooner when someone calls
flush(). flush() returns once everything recorded before the call is in the sink.
"""
import threading

from clicks import Click


class WriterClosed(RuntimeError):
    pass


class BatchWriter:
    def __init__(self, sink, interval=5.0):
        self._sink = sink
        self._interval = interval
        self._lock = threading.Lock()
        self._buffer = []
        self._wakeup = threading.Event()
        # Flush tickets: flush() takes the next number; a drain covers every ticket
        # issued before it swapped the buffer out.
        self._written = threading.Condition(self._lock)
        self._requested = 0
        self._completed = 0
        self._stopping = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="click-writer", daemon=True)
        self._thread.start()

    def record(self, click):
        if not isinstance(click, Click):
            raise TypeError(f"expected Click, got {type(click).__name__}")
        with self._lock:
            if self._closed:
                raise WriterClosed("writer is closed")
            self._buffer.append(click.to_record())

    def flush(self, timeout=None):
        """Ask the writer thread for a batch now and wait until it is written."""
        with self._lock:
            if self._closed:
                raise WriterClosed("writer is closed")
            self._requested += 1
            ticket = self._requested
        self._wakeup.set()
        with self._written:
            return self._written.wait_for(lambda: self._completed >= ticket, timeout)

    def close(self, timeout=None):
        """Write what is buffered and stop the writer thread."""
        with self._lock:
            if self._closed:
                return True
            self._closed = True
            self._stopping = True
        self._wakeup.set()
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _drain(self):
        with self._lock:
            batch, self._buffer = self._buffer, []
            covered = self._requested
        if batch:
            self._sink.write_batch(batch)
        with self._written:
            self._completed = covered
            self._written.notify_all()

    def _run(self):
        while True:
            self._wakeup.wait(self._interval)
            self._wakeup.clear()
            self._drain()
            with self._lock:
                if self._stopping:
                    return
