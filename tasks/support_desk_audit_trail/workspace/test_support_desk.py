import pytest

from audit import AuditEntry, AuditLog
from request_context import PermissionDenied
from support_desk import PaymentProvider, SupportDesk, handle

AGENT = ("support",)


@pytest.fixture
def desk():
    return SupportDesk(AuditLog(), PaymentProvider())


def test_note_is_audited_under_the_agent(desk):
    handle(desk, "alice", AGENT, "r-1", lambda d: d.add_note("o-1", "customer called"))
    assert desk.audit.written == [AuditEntry("r-1", "alice", "note.added", "o-1")]
    assert desk.notes == {"o-1": [("alice", "customer called")]}


def test_agent_without_support_role_is_denied(desk):
    with pytest.raises(PermissionDenied):
        handle(desk, "mallory", ("viewer",), "r-2", lambda d: d.add_note("o-1", "hi"))
    assert desk.audit.written == []


def test_refund_reaches_the_provider_as_the_billing_account(desk):
    handle(desk, "alice", AGENT, "r-3", lambda d: d.refund("o-2", 1500))
    assert desk.provider.refunds == [("svc-billing", "o-2", 1500)]


def test_consecutive_requests_are_audited_separately(desk):
    handle(desk, "alice", AGENT, "r-4", lambda d: d.add_note("o-3", "first"))
    handle(desk, "bob", AGENT, "r-5", lambda d: d.add_note("o-3", "second"))
    assert [(e.request_id, e.actor) for e in desk.audit.written] == [("r-4", "alice"), ("r-5", "bob")]


def test_refund_is_audited_under_the_agent(desk):
    handle(desk, "alice", AGENT, "r-6", lambda d: d.refund("o-4", 999))
    trail = [(e.actor, e.action) for e in desk.audit.written]
    assert trail == [("alice", "refund.requested"), ("alice", "refund.issued")], f"audit trail: {trail}"


def test_agent_can_annotate_after_a_refund(desk):
    def refund_then_note(d):
        d.refund("o-5", 2500)
        d.add_note("o-5", "refunded damaged item")

    handle(desk, "carol", AGENT, "r-7", refund_then_note)
    assert desk.notes == {"o-5": [("carol", "refunded damaged item")]}
