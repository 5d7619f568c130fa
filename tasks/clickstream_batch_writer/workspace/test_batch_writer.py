import json
import threading

import pytest

from batch_writer import BatchWriter, WriterClosed
from clicks import Click
from sinks import JsonLinesSink, MemorySink


def click(n, session="s1"):
    return Click(session, "/checkout", f"button-{n}", 1000 + n)


class HeldSink(MemorySink):
    """A sink whose writes can be held back, like a slow network store."""

    def __init__(self):
        super().__init__()
        self.open = threading.Event()
        self.open.set()

    def write_batch(self, records):
        self.open.wait(5)
        super().write_batch(records)


def test_flush_writes_recorded_clicks():
    sink = MemorySink()
    writer = BatchWriter(sink, interval=60)
    writer.record(click(1))
    writer.record(click(2))
    assert writer.flush(timeout=2)
    assert [r["element"] for r in sink.records()] == ["button-1", "button-2"]
    writer.close(timeout=2)


def test_close_writes_remaining_clicks(tmp_path):
    path = tmp_path / "clicks.jsonl"
    writer = BatchWriter(JsonLinesSink(path), interval=60)
    writer.record(click(7))
    assert writer.close(timeout=2)
    lines = path.read_text().splitlines()
    assert [json.loads(line)["element"] for line in lines] == ["button-7"]
    with pytest.raises(WriterClosed):
        writer.record(click(8))


def test_invalid_clicks_are_refused():
    writer = BatchWriter(MemorySink(), interval=60)
    with pytest.raises(ValueError):
        click(-5000)
    with pytest.raises(TypeError):
        writer.record({"page": "/"})
    writer.close(timeout=2)


def test_each_flush_waits_for_its_own_batch():
    sink = HeldSink()
    writer = BatchWriter(sink, interval=60)
    writer.record(click(1))
    assert writer.flush(timeout=2)

    sink.open.clear()
    writer.record(click(2))
    returned = threading.Event()
    seen_at_return = []

    def flush_second():
        writer.flush(timeout=5)
        seen_at_return.extend(r["element"] for r in sink.records())
        returned.set()

    threading.Thread(target=flush_second, daemon=True).start()
    early = returned.wait(1)
    sink.open.set()
    assert returned.wait(3), "second flush() never returned"
    assert not early, f"flush() returned while its batch was still held; sink had {seen_at_return}"
    assert seen_at_return == ["button-1", "button-2"]
    writer.close(timeout=2)
