import pytest

from buffers import BufferPool
from framing import FrameError, FrameWriter
from telemetry import Reading, decode, encode

READINGS = [
    Reading("gw-1", "temp", 21.5),
    Reading("gw-1", "humidity", 40.25),
    Reading("gw-2", "co2", 612.0),
    Reading("gw-3", "temp", -3.75),
]


def test_one_reading_round_trips():
    assert decode(encode(BufferPool(), READINGS[0])) == READINGS[0]


def test_a_stream_of_readings_round_trips():
    pool = BufferPool()
    sent = [encode(pool, r) for r in READINGS]
    assert [decode(m) for m in sent] == READINGS


def test_buffers_are_recycled_not_duplicated():
    pool = BufferPool()
    for r in READINGS * 3:
        encode(pool, r)
    assert pool.allocated == 2
    assert pool.idle() == pool.allocated, f"{pool.idle()} idle buffers, {pool.allocated} allocated"


def test_a_failed_frame_returns_its_buffer():
    pool = BufferPool()
    with pytest.raises(FrameError):
        with FrameWriter(pool, 0x42) as w:
            w.field(1, b"x" * 300)
    assert pool.idle() == 1


def test_truncated_message_is_rejected():
    data = encode(BufferPool(), READINGS[2])
    with pytest.raises(FrameError):
        decode(data[:-3])
