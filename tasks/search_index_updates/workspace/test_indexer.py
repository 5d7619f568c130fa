import threading

from indexer import IndexUpdater
from retry_policy import IndexUnavailable, RejectedDocument


class FakeIndex:
    """Stores documents; `outages[doc_id]` says how many upserts of it fail first."""

    def __init__(self, outages=None, reject=()):
        self.docs = {}
        self.outages = dict(outages or {})
        self.reject = set(reject)
        self._lock = threading.Lock()

    def upsert(self, doc_id, fields):
        with self._lock:
            if doc_id in self.reject:
                raise RejectedDocument(doc_id)
            if self.outages.get(doc_id, 0) > 0:
                self.outages[doc_id] -= 1
                raise IndexUnavailable("cluster is rebalancing")
            self.docs[doc_id] = fields


def wait_indexed(updater, timeout=2.0):
    t = threading.Thread(target=updater.wait_until_indexed, daemon=True)
    t.start()
    t.join(timeout)
    return not t.is_alive()


def test_updates_reach_the_index():
    index = FakeIndex()
    updater = IndexUpdater(index)
    for n in range(5):
        updater.enqueue(f"doc-{n}", {"title": f"Title {n}"})
    assert wait_indexed(updater), "wait_until_indexed() did not return"
    assert sorted(index.docs) == [f"doc-{n}" for n in range(5)]
    assert updater.stop(timeout=2)


def test_rejected_document_is_reported_as_failed():
    index = FakeIndex(reject={"bad"})
    updater = IndexUpdater(index)
    updater.enqueue("bad", {"title": None})
    updater.enqueue("good", {"title": "ok"})
    assert wait_indexed(updater), "wait_until_indexed() did not return"
    assert [u.doc_id for u in updater.failed] == ["bad"]
    assert updater.failed[0].attempts == 1
    assert "good" in index.docs


def test_wait_returns_after_a_retried_update():
    index = FakeIndex(outages={"doc-1": 1})
    updater = IndexUpdater(index)
    updater.enqueue("doc-1", {"title": "Hello"})
    updater.enqueue("doc-2", {"title": "World"})
    assert wait_indexed(updater), "wait_until_indexed() still blocked after every update was handled"
    assert sorted(index.docs) == ["doc-1", "doc-2"]


def test_update_given_up_after_max_attempts():
    index = FakeIndex(outages={"doc-9": 10})
    updater = IndexUpdater(index)
    updater.enqueue("doc-9", {"title": "Never"})
    assert wait_indexed(updater), "wait_until_indexed() still blocked after every update was handled"
    assert [(u.doc_id, u.attempts) for u in updater.failed] == [("doc-9", 3)]


def test_products_are_indexed_with_folded_keywords():
    index = FakeIndex()
    updater = IndexUpdater(index)
    updater.enqueue_product(
        {"sku": "CR-1", "name": "Crème brûlée set", "price_cents": 2450, "tags": ["Kitchen", "set"], "stock": 3}
    )
    assert wait_indexed(updater), "wait_until_indexed() did not return"
    assert index.docs["CR-1"] == {
        "title": "Crème brûlée set",
        "keywords": ["creme", "brulee", "set", "kitchen"],
        "price": 24.5,
        "in_stock": True,
    }
