import threading

import pytest

from bus import EventBus
from events import Event


def publish_in_thread(bus, event, timeout=1.0):
    t = threading.Thread(target=bus.publish, args=(event,), daemon=True)
    t.start()
    t.join(timeout)
    return not t.is_alive()


def test_subscribers_receive_events_in_order():
    bus = EventBus()
    seen = []
    bus.subscribe("order.paid", lambda e: seen.append(("mail", e.payload["id"])))
    bus.subscribe("order.paid", lambda e: seen.append(("ledger", e.payload["id"])))
    bus.subscribe("order.cancelled", lambda e: seen.append(("other", e.payload["id"])))
    bus.publish(Event("order.paid", {"id": 7}))
    assert seen == [("mail", 7), ("ledger", 7)]


def test_cancelled_subscription_gets_nothing():
    bus = EventBus()
    seen = []
    sub = bus.subscribe("order.paid", seen.append)
    sub.cancel()
    bus.publish(Event("order.paid"))
    assert seen == []
    assert bus.subscriber_count("order.paid") == 0


def test_bad_topics_and_events_are_refused():
    with pytest.raises(ValueError):
        Event("OrderPaid")
    with pytest.raises(TypeError):
        EventBus().publish({"topic": "order.paid"})


def test_once_subscriber_gets_exactly_one_event():
    bus = EventBus()
    seen = []
    bus.subscribe_once("order.shipped", lambda e: seen.append(e.payload["id"]))
    assert publish_in_thread(bus, Event("order.shipped", {"id": 1})), "publish() did not return within 1s"
    assert publish_in_thread(bus, Event("order.shipped", {"id": 2})), "publish() did not return within 1s"
    assert seen == [1]
    assert bus.subscriber_count("order.shipped") == 0


def test_once_subscriber_does_not_hide_later_subscribers():
    bus = EventBus()
    seen = []
    bus.subscribe_once("order.refunded", lambda e: seen.append("audit"))
    bus.subscribe("order.refunded", lambda e: seen.append("accounting"))
    bus.subscribe("order.refunded", lambda e: seen.append("email"))
    assert publish_in_thread(bus, Event("order.refunded")), "publish() did not return within 1s"
    assert seen == ["audit", "accounting", "email"]


def test_handler_may_subscribe_a_follow_up():
    bus = EventBus()
    seen = []
    bus.subscribe("order.paid", lambda e: bus.subscribe("order.shipped", lambda e2: seen.append("track")))
    assert publish_in_thread(bus, Event("order.paid")), "publish() did not return within 1s"
    bus.publish(Event("order.shipped"))
    assert seen == ["track"]


def test_audit_trail_records_until_closed():
    from audit import AuditTrail

    bus = EventBus()
    trail = AuditTrail(bus, ["order.paid", "order.refunded"], limit=2)
    for n in range(3):
        bus.publish(Event("order.paid", {"id": n}))
    bus.publish(Event("order.cancelled", {"id": 9}))
    assert trail.entries() == [("order.paid", {"id": 1}), ("order.paid", {"id": 2})]
    trail.close()
    bus.publish(Event("order.refunded", {"id": 4}))
    assert trail.entries("order.refunded") == []
    assert bus.subscriber_count("order.paid") == 0
