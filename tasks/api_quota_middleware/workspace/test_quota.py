from quota import Request
from service import build, usage_report
from vendor.bucketlimit import BucketStore, TokenBucket


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def call(mw, key, path="/geocode/porto"):
    return mw(Request(path, {"X-Api-Key": key}))


def test_bucket_refills_over_time():
    clock = Clock()
    bucket = TokenBucket(rate=2, capacity=3, clock=clock)
    assert [bucket.try_take() for _ in range(4)] == [True, True, True, False]
    assert bucket.retry_after() == 0.5
    clock.now += 1
    assert bucket.tokens() == 2.0
    store = BucketStore(lambda key: (1, 1), clock=clock, idle_ttl=10)
    store.take("a")
    clock.now += 10
    assert store.sweep() == ["a"]


def test_unknown_key_is_401_and_known_key_gets_data():
    _, mw = build(Clock())
    assert call(mw, "nope").status == 401
    r = call(mw, "key-pro-a", "/geocode/Lisbon")
    assert (r.status, r.body["lat"]) == (200, 38.72)
    assert r.headers["X-RateLimit-Limit"] == "50"


def test_free_client_is_limited_after_its_burst():
    _, mw = build(Clock())
    statuses = [call(mw, "key-free-a").status for _ in range(6)]
    assert statuses == [200] * 5 + [429]
    assert call(mw, "key-free-a").headers["Retry-After"] == "1"


def test_one_clients_burst_does_not_limit_another():
    _, mw = build(Clock())
    for _ in range(5):
        call(mw, "key-free-a")
    assert call(mw, "key-free-b").status == 200


def test_remaining_header_counts_the_clients_own_calls():
    _, mw = build(Clock())
    for _ in range(3):
        call(mw, "key-pro-a")
    assert call(mw, "key-pro-b").headers["X-RateLimit-Remaining"] == "49"


def test_usage_report_lists_calls_and_rejections():
    clock = Clock()
    app, mw = build(clock)
    for _ in range(7):
        call(mw, "key-free-a")
    call(mw, "key-free-b")
    call(mw, "key-free-b", "/usage")
    clock.now += 2
    call(mw, "key-free-a", "/usage")
    assert usage_report(app, mw) == [("c-100", 6, 2), ("c-101", 2, 0)]
