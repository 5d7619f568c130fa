import pytest

from deliveries import sign
from vendor.miniroute import MethodNotAllowed, NotFound, Router
from webhooks import WebhookApp


def app():
    state = {"fail": True, "seen": []}

    def github(body):
        if state["fail"]:
            state["fail"] = False
            raise RuntimeError("db unavailable")
        state["seen"].append(body)

    return WebhookApp({"stripe": lambda body: None, "github": github}), state


def post(a, provider, body=b'{"id": 1}', signature=None):
    return a.handle("POST", f"/hooks/{provider}", body, {"X-Signature": signature or sign(provider, body)})


def test_router_matches_typed_parameters_in_order():
    router = Router()
    router.add("/a/<int:n>", lambda: None, name="num")
    router.add("/a/<name>", lambda: None, name="any")
    assert router.match("GET", "/a/12")[1] == {"n": 12}
    assert router.match("GET", "/a/x")[0].name == "any"
    with pytest.raises(MethodNotAllowed):
        router.match("POST", "/a/x")
    with pytest.raises(NotFound):
        router.match("GET", "/b")


def test_signed_delivery_is_processed():
    a, _ = app()
    assert post(a, "stripe") == (202, {"delivery": 1, "status": "processed"})


def test_bad_signature_and_unknown_provider():
    a, _ = app()
    assert post(a, "stripe", signature="0" * 64)[0] == 401
    assert a.handle("POST", "/hooks/acme", b"{}", {})[0] == 404
    assert a.handle("GET", "/hooks/stripe") == (200, {"provider": "stripe", "accepting": True})


def test_status_page_counts_deliveries():
    a, _ = app()
    post(a, "stripe")
    post(a, "github")
    assert a.handle("GET", "/hooks/status") == (200, {"providers": ["github", "stripe"], "deliveries": {"failed": 1, "processed": 1}})


def test_status_page_of_a_fresh_receiver():
    a, _ = app()
    code, body = a.handle("GET", "/hooks/status")
    assert code == 200 and body.get("deliveries") == {}


def test_failed_delivery_can_be_replayed():
    a, state = app()
    code, body = post(a, "github", b'{"push": 1}')
    assert (code, body["status"]) == (202, "failed")
    assert a.handle("POST", f"/hooks/github/deliveries/{body['delivery']}/replay") == (200, {"delivery": 1, "status": "processed", "attempts": 2})
    assert state["seen"] == [b'{"push": 1}']
    assert a.handle("GET", "/hooks/github/deliveries/1")[1]["attempts"] == ["RuntimeError('db unavailable')", "ok"]


def test_url_for_builds_operator_links():
    a, _ = app()
    assert a.url_for("replay", provider="github", delivery_id=7) == "/hooks/github/deliveries/7/replay"
