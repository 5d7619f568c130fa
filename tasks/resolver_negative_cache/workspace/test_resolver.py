from endpoints import upstreams
from resolver import Resolver
from ttl_cache import TtlCache

REGISTRY = {"billing": "10.0.4.12", "search": "10.0.7.3"}
NAMES = ["billing", "ledger", "search"]


def warm_cache(tmp_path):
    resolver = Resolver(REGISTRY)
    for name in NAMES:
        resolver.resolve(name, now=0.0)
    resolver.cache.dump(tmp_path / "cache.pkl")


def test_known_and_unknown_names():
    resolver = Resolver(REGISTRY)
    assert resolver.resolve("billing", 0.0) == "10.0.4.12"
    assert resolver.resolve("ledger", 0.0) is None


def test_unknown_name_is_not_asked_again_while_cached():
    resolver = Resolver(REGISTRY)
    resolver.resolve("ledger", 0.0)
    resolver.resolve("ledger", 10.0)
    assert resolver.upstream_queries == 1


def test_negative_entry_expires_before_positive_ones():
    resolver = Resolver(REGISTRY)
    for name in NAMES:
        resolver.resolve(name, 0.0)
    for name in NAMES:
        resolver.resolve(name, 60.0)
    assert resolver.upstream_queries == 4   # three cold lookups, then only "ledger" again


def test_warm_start_serves_known_names_from_cache(tmp_path):
    warm_cache(tmp_path)
    resolver = Resolver(REGISTRY, TtlCache.load(tmp_path / "cache.pkl"))
    assert resolver.resolve("search", 5.0) == "10.0.7.3"
    assert resolver.upstream_queries == 0


def test_warm_start_still_knows_missing_services(tmp_path):
    warm_cache(tmp_path)
    resolver = Resolver(REGISTRY, TtlCache.load(tmp_path / "cache.pkl"))
    assert resolver.resolve("ledger", 5.0) is None


def test_upstream_list_after_warm_start(tmp_path):
    warm_cache(tmp_path)
    resolver = Resolver(REGISTRY, TtlCache.load(tmp_path / "cache.pkl"))
    assert upstreams(resolver, NAMES, 8443, now=5.0) == ["10.0.4.12:8443", "10.0.7.3:8443"]
