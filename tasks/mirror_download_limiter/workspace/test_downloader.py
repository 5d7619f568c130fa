import threading

import pytest

from downloader import Downloader
from mirrors import DownloadFailed, MirrorList, TransientError


class FakeTransport:
    """Serves bodies by URL; paths in `broken` always fail. Tracks how many gets overlap."""

    def __init__(self, broken=(), meeting=None):
        self.broken = set(broken)
        self.meeting = meeting
        self.calls = []
        self.in_flight = 0
        self.peak = 0
        self._lock = threading.Lock()

    def get(self, url):
        with self._lock:
            self.calls.append(url)
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        try:
            if self.meeting is not None:
                try:
                    self.meeting.wait()
                except threading.BrokenBarrierError:
                    pass
            if any(url.endswith(p) for p in self.broken):
                raise TransientError(f"503 from {url}")
            return f"body of {url}"
        finally:
            with self._lock:
                self.in_flight -= 1


MIRRORS = MirrorList(["a.mirror.test", "b.mirror.test"])


def test_fetch_returns_body():
    downloader = Downloader(FakeTransport(), MIRRORS)
    assert downloader.fetch("/pkg/v1.tar.gz") == "body of https://a.mirror.test/pkg/v1.tar.gz"
    assert downloader.limiter.active == 0


def test_failed_download_tries_every_attempt_then_raises():
    transport = FakeTransport(broken={"/pkg/gone.tar.gz"})
    downloader = Downloader(transport, MIRRORS, attempts=3)
    with pytest.raises(DownloadFailed):
        downloader.fetch("/pkg/gone.tar.gz")
    assert [c.split("/")[2] for c in transport.calls] == ["a.mirror.test", "b.mirror.test", "a.mirror.test"]
    assert downloader.failures[0][0] == "/pkg/gone.tar.gz"


def parallel_fetches(downloader, paths):
    errors = []

    def fetch(path):
        try:
            downloader.fetch(path)
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=fetch, args=(p,), daemon=True) for p in paths]
    for t in threads:
        t.start()
    for t in threads:
        t.join(4)
    assert not any(t.is_alive() for t in threads)
    return errors


def test_parallel_downloads_respect_the_limit():
    # Three downloads meet inside the transport if the limiter lets all three in.
    transport = FakeTransport(meeting=threading.Barrier(3, timeout=1))
    downloader = Downloader(transport, MIRRORS, max_parallel=2)
    assert parallel_fetches(downloader, ["/a", "/b", "/c"]) == []
    assert transport.peak == 2


def test_no_download_counted_active_after_a_failure():
    downloader = Downloader(FakeTransport(broken={"/gone"}), MIRRORS, attempts=2)
    with pytest.raises(DownloadFailed):
        downloader.fetch("/gone")
    assert downloader.limiter.active == 0, f"limiter reports {downloader.limiter.active} active downloads"


def test_limit_still_holds_after_a_failed_download():
    transport = FakeTransport(broken={"/gone"})
    downloader = Downloader(transport, MIRRORS, max_parallel=2, attempts=1)
    with pytest.raises(DownloadFailed):
        downloader.fetch("/gone")
    transport.meeting = threading.Barrier(3, timeout=1)
    assert parallel_fetches(downloader, ["/a", "/b", "/c"]) == []
    assert transport.peak <= 2, f"{transport.peak} downloads ran at once with max_parallel=2"


def test_corrupt_mirror_copy_is_fetched_from_the_next_mirror():
    import hashlib

    from checksums import Manifest

    good = "body of https://b.mirror.test/pkg/v2.tar.gz"
    manifest = Manifest({"/pkg/v2.tar.gz": hashlib.sha256(good.encode()).hexdigest()})
    transport = FakeTransport()
    downloader = Downloader(transport, MIRRORS, manifest=manifest)
    assert downloader.fetch("/pkg/v2.tar.gz") == good
    assert len(transport.calls) == 2
    with pytest.raises(ValueError):
        Manifest({"/x": "not-a-digest"})
