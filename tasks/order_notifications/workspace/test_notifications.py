import gc

import pytest

from channels import Outbox
from notifications import OrderNotifier, SalesTally
from orders import OrderService, OrderStateError
from vendor.minisignal import Signal


@pytest.fixture
def setup():
    service = OrderService()
    mail, sms = Outbox("mail"), Outbox("sms")
    notifier = OrderNotifier(mail, sms, service)
    gc.collect()
    yield service, mail, sms, notifier
    del notifier
    gc.collect()


def test_signal_library_calls_live_receivers_and_drops_dead_ones():
    sig = Signal()
    calls = []

    class Listener:
        def hear(self, sender, **kw):
            calls.append((sender, kw))

    listener = Listener()
    sig.connect(listener.hear)
    sig.send("s", x=1)
    del listener
    gc.collect()
    sig.send("s", x=2)
    assert calls == [("s", {"x": 1})] and sig.receivers == 0 and sig.dropped == 1


def test_paid_order_mails_a_receipt(setup):
    service, mail, sms, _ = setup
    order = service.place("ana@example.com", "+351900000001", 4_250)
    service.capture_payment(order.number)
    assert mail.sent == [("ana@example.com", f"Receipt for order {order.number}", "We received 42.50.")]


def test_shipped_order_sends_a_text(setup):
    service, mail, sms, _ = setup
    order = service.place("bo@example.com", "+351900000002", 1_000)
    service.capture_payment(order.number)
    service.ship(order.number, "TRK-77")
    assert sms.sent == [("+351900000002", f"Order {order.number} is on its way", "TRK-77")]


def test_cancelled_order_mails_the_reason(setup):
    service, mail, _, _ = setup
    order = service.place("cy@example.com", "+351900000003", 500)
    service.cancel(order.number, "out of stock")
    assert mail.subjects() == [f"Order {order.number} cancelled"]


def test_tally_counts_revenue(setup):
    service, _, _, _ = setup
    tally = SalesTally()
    a = service.place("a@example.com", "1", 1_000)
    b = service.place("b@example.com", "2", 2_500)
    service.capture_payment(a.number)
    service.capture_payment(b.number)
    service.cancel(b.number, "changed mind")
    assert (tally.paid_cents, tally.cancelled) == (3_500, 1)


def test_illegal_transitions_are_refused(setup):
    service, _, _, _ = setup
    order = service.place("d@example.com", "4", 100)
    with pytest.raises(OrderStateError):
        service.ship(order.number, "TRK")
