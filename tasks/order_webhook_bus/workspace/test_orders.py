from bus import WebhookBus
from integrations import AuditLog, CrmSync, PlanAnalytics
from orders import OrderService

NOOR = {"name": "Noor", "email": "noor@example.org", "plan": "pro"}


def wired():
    bus = WebhookBus()
    audit, analytics, crm = AuditLog(), PlanAnalytics(), CrmSync()
    bus.subscribe("audit", audit, "order.*")
    bus.subscribe("analytics", analytics, "order.created")
    bus.subscribe("crm", crm, "order.created")
    return bus, OrderService(bus), audit, analytics, crm


def test_audit_log_is_redacted():
    bus, svc, audit, *_ = wired()
    svc.create("o1", NOOR, 40.0)
    assert audit.entries[0]["customer"]["email"] == "n***@example.org"


def test_analytics_counts_plans():
    bus, svc, _, analytics, _ = wired()
    svc.create("o1", NOOR, 40.0)
    svc.create("o2", {**NOOR, "plan": "free"}, 5.0)
    assert analytics.orders_by_plan == {"pro": 1, "free": 1}


def test_crm_gets_the_real_contact():
    bus, svc, *_, crm = wired()
    svc.create("o1", NOOR, 40.0)
    svc.create("o2", NOOR, 12.0)
    assert crm.contacts == {"noor@example.org": {"name": "Noor", "orders": 2}}
    assert [s.failures for s in bus._subscribers] == [0, 0, 0]


def test_replay_shows_events_as_published():
    bus, svc, *_ = wired()
    svc.create("o1", NOOR, 40.0)
    svc.ship("o1")
    (t1, created), (t2, shipped) = bus.replay()
    assert (t1, created["status"]) == ("order.created", "created"), created
    assert created["customer"] == NOOR, created
    assert (t2, shipped["status"]) == ("order.shipped", "shipped")


def test_replay_since_a_sequence_number():
    bus, svc, *_ = wired()
    svc.create("o1", NOOR, 40.0)
    seq = bus.publish("order.note", {"text": "gift wrap"})
    svc.create("o2", NOOR, 8.0)
    assert [t for t, _ in bus.replay(since_seq=seq)] == ["order.created"]
