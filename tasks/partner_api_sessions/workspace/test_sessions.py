import pytest

from retry import RetryPolicy
from session import Session, Throttled
from transport import InMemoryTransport, Response

ACME = "https://api.acme.test"
GLOBEX = "https://api.globex.test"


def ok(body="[]"):
    return Response(200, body)


def test_requests_carry_the_client_identity():
    transport = InMemoryTransport({f"{ACME}/orders": [ok()]})
    Session(ACME, transport).get("/orders")
    sent = transport.sent[0].headers
    assert (sent["User-Agent"], sent["Accept"]) == ("shopsync/2.1", "application/json")


def test_caller_headers_replace_the_defaults():
    transport = InMemoryTransport({f"{ACME}/export": [ok("a,b")]})
    Session(ACME, transport, headers={"Accept": "text/csv"}).get("/export")
    assert transport.sent[0].headers == {"Accept": "text/csv"}


def test_gives_up_after_the_configured_attempts():
    transport = InMemoryTransport({f"{ACME}/orders": [Response(429)] * 3})
    sleeps = []
    policy = RetryPolicy({"attempts": 2, "delay_s": 1.0, "max_delay_s": 8.0})
    with pytest.raises(Throttled):
        Session(ACME, transport, retry=policy, sleep=sleeps.append).get("/orders")
    assert len(transport.sent) == 2
    assert sleeps == [2.0]


def test_partner_token_is_not_sent_to_other_partners():
    transport = InMemoryTransport({f"{ACME}/orders": [ok()], f"{GLOBEX}/catalog": [ok()]})
    acme = Session(ACME, transport)
    acme.authenticate("acme-secret")
    acme.get("/orders")
    Session(GLOBEX, transport).get("/catalog")
    globex_headers = transport.sent[1].headers
    assert globex_headers.get("Authorization") is None, f"request to globex sent {globex_headers}"


def test_throttling_by_one_partner_does_not_slow_another():
    transport = InMemoryTransport({
        f"{ACME}/orders": [Response(429), ok()],
        f"{GLOBEX}/catalog": [Response(429), ok()],
    })
    acme_sleeps, globex_sleeps = [], []
    Session(ACME, transport, sleep=acme_sleeps.append).get("/orders")
    Session(GLOBEX, transport, sleep=globex_sleeps.append).get("/catalog")
    assert acme_sleeps == [1.0]
    assert globex_sleeps == [1.0], f"globex backed off {globex_sleeps}"
