import pytest

from backoff import delay_seconds
from dispatcher import Dispatcher
from delivery_log import DeliveryLog
from fanout import fan_out
from retry_policy import RetryPolicy
from signing import BadSignature, sign, verify
from subscriptions import SubscriptionError, subscription


class ScriptedTransport:
    def __init__(self, *statuses):
        self.statuses = list(statuses)
        self.calls = 0

    def __call__(self, url, body):
        self.calls += 1
        return self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]


def dispatcher(transport, policy=None):
    sleeps = []
    return Dispatcher(transport, sleeps.append, policy), sleeps


def test_first_try_success():
    d, sleeps = dispatcher(ScriptedTransport(204))
    report = d.deliver("https://hooks.example/a", b"{}")
    assert report.delivered and report.attempts == 1 and sleeps == []


def test_server_error_is_retried_until_success():
    d, sleeps = dispatcher(ScriptedTransport(503, 502, 200))
    report = d.deliver("https://hooks.example/a", b"{}")
    assert report.statuses == [503, 502, 200]
    assert report.delivered
    assert sleeps == [0.5, 1.0]


def test_rejected_request_is_not_resent():
    transport = ScriptedTransport(404)
    d, _ = dispatcher(transport)
    report = d.deliver("https://hooks.example/gone", b"{}")
    assert not report.delivered
    assert transport.calls == 1, f"a 404 was sent {transport.calls} times"


def test_rate_limited_delivery_is_retried():
    d, _ = dispatcher(ScriptedTransport(429, 200))
    assert d.deliver("https://hooks.example/a", b"{}").delivered


def test_gives_up_after_max_attempts():
    d, sleeps = dispatcher(ScriptedTransport(408), RetryPolicy(max_attempts=3))
    report = d.deliver("https://hooks.example/a", b"{}")
    assert report.attempts == 3 and not report.delivered
    assert report.waited_seconds == sum(sleeps) == 1.5


def test_backoff_is_capped():
    assert [delay_seconds(n) for n in (1, 2, 3)] == [0.5, 1.0, 2.0]
    assert delay_seconds(20) == 30.0


SECRET = "whsec_0123456789abcdef"


def test_signatures_verify_and_expire():
    header = sign(SECRET, b'{"a":1}', 1_700_000_000)
    assert verify(SECRET, b'{"a":1}', header, now=1_700_000_100)
    with pytest.raises(BadSignature):
        verify(SECRET, b'{"a":2}', header, now=1_700_000_100)
    with pytest.raises(BadSignature):
        verify(SECRET, b'{"a":1}', header, now=1_700_001_000)


def test_event_goes_to_matching_subscriptions():
    subs = [
        subscription("s1", "https://a.example/hook", SECRET, ["invoice.*"]),
        subscription("s2", "https://b.example/hook", SECRET, ["customer.created"]),
        subscription("s3", "https://c.example/hook", SECRET),
    ]
    with pytest.raises(SubscriptionError):
        subscription("s4", "http://d.example/hook", SECRET)
    seen = []
    d, _ = dispatcher(lambda url, body: seen.append((url, body)) or 200)
    reports = fan_out(d, subs, "invoice.paid", "evt_1", {"amount": 900}, now=1_700_000_000)
    assert sorted(reports) == ["s1", "s3"] and all(r.delivered for r in reports.values())
    url, body = seen[0]
    assert url.startswith("https://a.example/hook?sig=t=1700000000,v1=")
    assert verify(SECRET, body, url.split("?sig=")[1], now=1_700_000_000)


def test_delivery_log_summarises_attempts(tmp_path):
    d, _ = dispatcher(ScriptedTransport(200))
    log = DeliveryLog(tmp_path / "deliveries.jsonl")
    log.record("evt_1", "s1", d.deliver("https://a.example/hook", b"{}"))
    log.record("evt_2", "s1", d.deliver("https://a.example/hook", b"{}"))
    assert log.summary() == {"s1": {"delivered": 2, "failed": 0, "attempts": 2}}
    assert log.undelivered() == []
