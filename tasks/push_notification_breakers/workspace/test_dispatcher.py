import pytest

from circuit import CircuitBreaker
from dispatcher import NotificationDispatcher
from endpoints import Endpoint, EndpointDirectory


class FakeNetwork:
    def __init__(self, down: set[str] = frozenset()):
        self.down = set(down)
        self.calls: list[str] = []

    def send(self, endpoint: Endpoint, payload: dict) -> None:
        self.calls.append(endpoint.name)
        if endpoint.name in self.down:
            raise ConnectionError(f"{endpoint.url} unreachable")


def directory(*names):
    d = EndpointDirectory()
    for name in names:
        d.register(Endpoint(name, f"https://{name}.example/hook"))
    return d


def test_breaker_opens_after_threshold_and_success_resets():
    b = CircuitBreaker(threshold=2)
    b.record_failure()
    b.record_success()
    b.record_failure()
    assert not b.is_open
    b.record_failure()
    assert b.is_open


def test_plain_http_endpoint_is_refused():
    with pytest.raises(ValueError, match="https"):
        EndpointDirectory().register(Endpoint("legacy", "http://legacy.example/hook"))


def test_healthy_endpoints_receive_every_notification():
    net = FakeNetwork()
    dispatcher = NotificationDispatcher(directory("ios", "android"), net.send)
    for n in range(3):
        assert dispatcher.deliver({"n": n}) == {"ios": "ok", "android": "ok"}
    assert len(net.calls) == 6


def test_unreachable_endpoint_is_suspended_while_others_keep_receiving():
    net = FakeNetwork(down={"ios"})
    dispatcher = NotificationDispatcher(directory("ios", "android"), net.send)
    outcomes = [dispatcher.deliver({"n": n}) for n in range(4)]
    assert [o["android"] for o in outcomes] == ["ok"] * 4
    ios = [o["ios"] for o in outcomes]
    assert ios == ["failed", "failed", "failed", "suspended"], f"ios outcomes: {ios}"


def test_new_endpoint_starts_healthy_after_another_was_suspended():
    net = FakeNetwork(down={"sms"})
    d = directory("sms")
    dispatcher = NotificationDispatcher(d, net.send)
    for n in range(3):
        dispatcher.deliver({"n": n})
    d.register(Endpoint("email", "https://email.example/hook"))
    outcome = dispatcher.deliver({"n": 3})
    assert outcome == {"sms": "suspended", "email": "ok"}, f"outcome: {outcome}"
