import hashlib

import pytest

from artifacts import ArtifactCache, ArtifactCorrupt, ArtifactTooLarge
from keys import KeyError_, cache_key
from runner import JobRunner
from vendor.blobshelf import BlobStore


@pytest.fixture
def cache(tmp_path):
    return ArtifactCache(BlobStore(str(tmp_path / "shelf"), max_pending=2), max_bytes=10_000)


def test_cache_key_is_stable():
    assert cache_key("web", "deps", "a==1\n") == cache_key("web", "deps", "a==1\n")
    with pytest.raises(KeyError_):
        cache_key("web app", "deps", "")


def test_publish_and_fetch(cache):
    data = b"x" * 9000
    art = cache.publish("web/deps/linux-x64/abc", data, hashlib.sha256(data).hexdigest())
    assert art.size == 9000
    assert cache.fetch("web/deps/linux-x64/abc") == data
    assert cache.store.pending() == []


def test_corrupt_upload_is_rejected(cache):
    with pytest.raises(ArtifactCorrupt):
        cache.publish("k1", b"data", expected_sha256="0" * 64)
    assert cache.fetch("k1") is None


def test_failed_uploads_do_not_block_later_ones(cache):
    for i in range(3):
        with pytest.raises(ArtifactCorrupt):
            cache.publish(f"bad{i}", b"data", expected_sha256="0" * 64)
    assert cache.publish("good", b"ok").size == 2


def test_oversized_artifacts_leave_no_partial_files(cache):
    with pytest.raises(ArtifactTooLarge):
        cache.publish("huge", b"z" * 20_000)
    assert cache.store.pending() == []
    assert cache.store.disk_usage() == 0


def test_runner_restores_latest_matching(cache):
    runner = JobRunner(cache, "web")
    runner.save("deps", "a==1\n", b"v1")
    runner.save("deps", "a==2\n", b"v2")
    assert runner.restore("deps") in (b"v1", b"v2")
    assert runner.restore("lint") is None


def test_runner_keeps_saving_after_failures(cache):
    runner = JobRunner(cache, "web")
    for _ in range(3):
        assert runner.save("deps", "a==1\n", b"data", expected="f" * 64) is None
    assert runner.save("deps", "a==1\n", b"data") is not None
    assert [e[0] for e in runner.events] == ["save-failed"] * 3 + ["save"]


def test_bad_logs_do_not_block_the_store(cache):
    runner = JobRunner(cache, "web")
    assert runner.save_log("build", ["ok", "bin\x00ary"]) is None
    assert runner.save_log("deploy", ["\x00"]) is None
    assert runner.save_log("test", ["ran 3 tests\n", "ok\n"]) == "web/test/logs.log"
    assert runner.save_log("lint", ["clean"]) == "web/lint/logs.log"
    assert cache.fetch("web/test/logs.log") == b"ran 3 tests\nok\n"


def test_prune_keeps_newest(cache):
    for i in range(4):
        cache.publish(f"web/deps/linux-x64/{i}", bytes([i]) * 10)
    assert cache.prune("web/deps/", keep=1) == ["web/deps/linux-x64/0", "web/deps/linux-x64/1", "web/deps/linux-x64/2"]
    assert cache.total_size() == 10
