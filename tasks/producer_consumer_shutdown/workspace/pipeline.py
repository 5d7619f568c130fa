"""A multi-consumer pipeline that fulfils orders in priority order."""
import itertools
import queue
import threading
import time

from fulfilment import SHUTDOWN_PRIORITY, consume
from orders import Order


class PipelineClosed(RuntimeError):
    pass


class OrderPipeline:
    """Producers call submit(); `consumers` threads deliver orders to `sink`.

    close() stops intake; every order submitted before close() is still
    delivered, after which the consumer threads exit and join() returns True.
    """

    def __init__(self, sink, consumers=2, max_pending=1000):
        if consumers < 1:
            raise ValueError("need at least one consumer")
        self._sink = sink
        self._queue = queue.PriorityQueue(maxsize=max_pending)
        self._sequence = itertools.count()
        self._closed = False
        self._intake = threading.Lock()
        self.failures = []
        self._threads = [
            threading.Thread(
                target=consume,
                args=(self._queue, sink, self.failures),
                name=f"order-consumer-{i}",
                daemon=True,
            )
            for i in range(consumers)
        ]

    def start(self):
        for thread in self._threads:
            thread.start()
        return self

    def submit(self, order):
        if not isinstance(order, Order):
            raise TypeError(f"expected Order, got {type(order).__name__}")
        with self._intake:
            if self._closed:
                raise PipelineClosed(f"pipeline closed; rejected {order.order_id}")
            self._queue.put((int(order.priority), next(self._sequence), order))

    def close(self):
        """Stop accepting orders and tell the consumers to finish."""
        with self._intake:
            if self._closed:
                return
            self._closed = True
            self._queue.put((SHUTDOWN_PRIORITY, next(self._sequence), None))

    def join(self, timeout=None):
        """Wait for all consumers to exit; False if any is still running at the timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for thread in self._threads:
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in self._threads)
