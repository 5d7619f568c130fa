from backoff import delay_seconds
from dispatcher import Dispatcher
from retry_policy import RetryPolicy


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
