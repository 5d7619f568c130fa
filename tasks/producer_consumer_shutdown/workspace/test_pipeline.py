import threading

import pytest

from orders import Order, Priority
from pipeline import OrderPipeline, PipelineClosed


class RecordingSink:
    """Collects delivered orders. While `gate` is clear, deliveries block."""

    def __init__(self, expected=None):
        self.delivered = []
        self.gate = threading.Event()
        self.gate.set()
        self._lock = threading.Lock()
        self._expected = expected
        self.all_in = threading.Event()

    def deliver(self, order):
        self.gate.wait(5)
        with self._lock:
            self.delivered.append(order.order_id)
            if self._expected is not None and len(self.delivered) >= self._expected:
                self.all_in.set()


def orders(n, priority=Priority.STANDARD):
    return [Order(f"o{i}", "SKU-1", 1, priority) for i in range(n)]


def test_running_pipeline_delivers_submitted_orders():
    sink = RecordingSink(expected=6)
    pipeline = OrderPipeline(sink, consumers=2).start()
    for order in orders(6):
        pipeline.submit(order)
    assert sink.all_in.wait(2), f"only {len(sink.delivered)} of 6 orders delivered"
    assert sorted(sink.delivered) == sorted(f"o{i}" for i in range(6))


def test_submit_after_close_is_rejected():
    pipeline = OrderPipeline(RecordingSink(), consumers=1).start()
    pipeline.close()
    with pytest.raises(PipelineClosed):
        pipeline.submit(Order("late", "SKU-1", 1))


def test_invalid_orders_are_refused():
    with pytest.raises(ValueError):
        Order("o1", "SKU-1", 0)
    pipeline = OrderPipeline(RecordingSink(), consumers=1)
    with pytest.raises(TypeError):
        pipeline.submit({"order_id": "o1"})


def test_close_with_idle_consumers_finishes():
    pipeline = OrderPipeline(RecordingSink(), consumers=3).start()
    pipeline.close()
    assert pipeline.join(timeout=1), "consumer threads still running 1s after close()"


def test_close_drains_orders_already_queued():
    sink = RecordingSink()
    sink.gate.clear()  # consumers block on their first order
    pipeline = OrderPipeline(sink, consumers=2).start()
    submitted = orders(8) + [Order("bulk-a", "SKU-2", 3, Priority.BULK), Order("bulk-b", "SKU-2", 3, Priority.BULK)]
    for order in submitted:
        pipeline.submit(order)
    pipeline.close()
    sink.gate.set()
    finished = pipeline.join(timeout=2)
    assert sorted(sink.delivered) == sorted(o.order_id for o in submitted), (
        f"delivered {len(sink.delivered)} of {len(submitted)} orders submitted before close()"
    )
    assert finished, "consumer threads still running after close()"
