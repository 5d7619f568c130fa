"""The consumer side: take orders off the queue and hand them to a sink."""
import logging

log = logging.getLogger(__name__)

# Queue entries are (priority, sequence, order). The sequence keeps orders of equal
# priority in arrival order and stops the queue from ever comparing two orders.
SHUTDOWN_PRIORITY = 0


def is_shutdown(entry):
    return entry[2] is None


def consume(work_queue, sink, failures):
    """Run one consumer until it receives a shutdown entry."""
    while True:
        entry = work_queue.get()
        try:
            if is_shutdown(entry):
                return
            order = entry[2]
            try:
                sink.deliver(order)
            except Exception as exc:
                log.warning("delivery of %s failed: %s", order.order_id, exc)
                failures.append((order.order_id, repr(exc)))
        finally:
            work_queue.task_done()
