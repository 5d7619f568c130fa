"""Background workers that push document updates into the search index.

Producers call enqueue(); wait_until_indexed() blocks until every update
enqueued so far has either reached the index or been given up on.
"""
import logging
import queue
import threading

from documents import product_document
from retry_policy import RetryPolicy
from updates import IndexUpdate

log = logging.getLogger(__name__)
_STOP = object()


class IndexUpdater:
    def __init__(self, client, workers=2, policy=None):
        self._client = client
        self._policy = policy or RetryPolicy()
        self._queue = queue.Queue()
        self.failed = []
        self._failed_lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._work, name=f"indexer-{i}", daemon=True) for i in range(workers)
        ]
        for t in self._threads:
            t.start()

    def enqueue(self, doc_id, fields):
        self._queue.put(IndexUpdate(doc_id, dict(fields)))

    def enqueue_product(self, product):
        self.enqueue(*product_document(product))

    def wait_until_indexed(self):
        self._queue.join()

    def stop(self, timeout=None):
        for _ in self._threads:
            self._queue.put(_STOP)
        for t in self._threads:
            t.join(timeout)
        return not any(t.is_alive() for t in self._threads)

    def _work(self):
        while True:
            update = self._queue.get()
            if update is _STOP:
                self._queue.task_done()
                return
            update.attempts += 1
            try:
                self._client.upsert(update.doc_id, update.fields)
            except Exception as exc:
                update.errors.append(repr(exc))
                if self._policy.should_retry(exc, update.attempts):
                    log.info("retrying %s after %s", update.doc_id, exc)
                    # The re-queued update is a new unit of work; this one is done
                    # (marked below, after the put, so join() cannot slip through).
                    self._queue.put(update)
                else:
                    log.warning("giving up on %s: %s", update.doc_id, exc)
                    with self._failed_lock:
                        self.failed.append(update)
            self._queue.task_done()
