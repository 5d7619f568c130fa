import threading

import pytest

from records import RecordError, normalize, parse_zone_line
from resolver import Resolver
from upstream import ZoneUpstream

ZONE = """
example.com. 300 A 192.0.2.1
www.example.com. 60 CNAME example.com.
api.example.com. 120 A 192.0.2.7
api.example.com. 120 A 192.0.2.8
mail.example.com. 600 AAAA 2001:db8::25
"""


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def make():
    clock = Clock()
    up = ZoneUpstream(ZONE)
    return Resolver(up, clock), up, clock


def test_normalize():
    assert normalize("WWW.Example.com") == "www.example.com."
    with pytest.raises(RecordError):
        normalize("a..b")
    with pytest.raises(RecordError):
        parse_zone_line("x. 10 MX mail.x.")


def test_answers_are_cached_until_ttl():
    r, up, clock = make()
    assert r.resolve("api.example.com") == ["192.0.2.7", "192.0.2.8"]
    assert r.resolve("API.example.com.") == ["192.0.2.7", "192.0.2.8"]
    assert len(up.calls) == 1
    clock.now = 121
    r.resolve("api.example.com")
    assert len(up.calls) == 2


def test_cname_chain_uses_lowest_ttl():
    r, up, clock = make()
    assert r.resolve("www.example.com") == ["192.0.2.1"]
    assert r.cache.remaining_ttl(("www.example.com.", "A")) == 60


def test_nxdomain_is_cached_negatively():
    r, up, clock = make()
    assert r.resolve("nope.example.com") == []
    assert r.resolve("nope.example.com") == []
    assert len(up.calls) == 1


def concurrent(r, up, name, followers=3):
    up.release.clear()
    up.started.clear()
    results = []
    lock = threading.Lock()

    def lookup():
        value = r.resolve(name)
        with lock:
            results.append(value)

    threads = [threading.Thread(target=lookup, daemon=True)]
    threads[0].start()
    assert up.started.wait(timeout=2)
    for _ in range(followers):
        t = threading.Thread(target=lookup, daemon=True)
        t.start()
        threads.append(t)
    for _ in range(200):
        if r.waiting == followers:
            break
        threading.Event().wait(0.01)
    assert r.waiting == followers
    up.release.set()
    for t in threads:
        t.join(timeout=3)
    assert not any(t.is_alive() for t in threads), "lookups hung"
    return results


def test_concurrent_lookups_share_one_query():
    r, up, _ = make()
    results = concurrent(r, up, "api.example.com")
    assert results == [["192.0.2.7", "192.0.2.8"]] * 4
    assert len(up.calls) == 1


def test_concurrent_mixed_case_lookups_share_one_query():
    r, up, _ = make()
    results = concurrent(r, up, "Example.COM", followers=2)
    assert results == [["192.0.2.1"]] * 3
    assert up.calls == [("example.com.", "A")]


def test_cache_stats():
    r, up, _ = make()
    r.resolve("mail.example.com", "AAAA")
    r.resolve("mail.example.com", "AAAA")
    assert (r.cache.hits, r.cache.misses) == (1, 1)


def test_hosts_file_overrides_upstream():
    from hosts import HostsFile

    hosts = HostsFile("192.0.2.99 api.example.com  # pinned\n::1 localhost\n")
    r = Resolver(ZoneUpstream(ZONE), Clock(), hosts=hosts)
    assert r.resolve("API.example.com") == ["192.0.2.99"]
    assert r.resolve("localhost", "AAAA") == ["::1"]
    assert hosts.names() == ["api.example.com.", "localhost."]
    assert r.upstream.calls == []
