from batcher import Batcher, Point
from exporter import MetricsExporter
from sinks import RecordingTransport


def delivered_points(transport):
    return [p for batch in transport.delivered for p in batch]


def test_batches_go_out_at_max_size():
    transport = RecordingTransport()
    exp = MetricsExporter(transport, batch_size=3)
    for ts in range(7):
        exp.gauge("cpu", ts / 10, ts)
    assert [len(b) for b in transport.delivered] == [3, 3]
    assert exp.batcher.pending() == 1


def test_close_flushes_the_rest():
    transport = RecordingTransport()
    exp = MetricsExporter(transport, batch_size=3)
    for ts in range(4):
        exp.gauge("cpu", 1.0, ts)
    exp.close()
    assert [p.ts for p in delivered_points(transport)] == [0, 1, 2, 3]


def test_short_outage_loses_no_points():
    transport = RecordingTransport()
    exp = MetricsExporter(transport, batch_size=2)
    transport.down = True
    for ts in range(3):
        exp.gauge("mem", 0.5, ts)
    assert exp.sink.backlog() == 1
    transport.down = False
    for ts in range(3, 6):
        exp.gauge("mem", 0.5, ts)
    exp.close()
    assert [p.ts for p in delivered_points(transport)] == [0, 1, 2, 3, 4, 5]


def test_backlog_is_retried_in_order_before_new_batches():
    transport = RecordingTransport()
    exp = MetricsExporter(transport, batch_size=2)
    transport.down = True
    for ts in range(4):
        exp.gauge("disk", 1.0, ts)
    transport.down = False
    exp.gauge("disk", 1.0, 4)
    exp.gauge("disk", 1.0, 5)
    assert [[p.ts for p in b] for b in transport.delivered] == [[0, 1], [2, 3], [4, 5]]


def test_batcher_rejects_zero_size():
    try:
        Batcher(RecordingTransport(), 0)
    except ValueError:
        return
    raise AssertionError("max_size=0 accepted")
