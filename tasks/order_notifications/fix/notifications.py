"""Customer notifications: a receipt mail when an order is paid, a text when it ships."""
from channels import money
from events import order_cancelled, order_paid, order_shipped


class OrderNotifier:
    def __init__(self, mail, sms, service=None):
        self.mail = mail
        self.sms = sms
        order_paid.connect(self.on_paid, sender=service) if service is not None else order_paid.connect(self.on_paid)
        order_shipped.connect(self.on_shipped, sender=service) if service is not None else order_shipped.connect(self.on_shipped)
        order_cancelled.connect(self.on_cancelled)

    def on_paid(self, sender, order, amount_cents):
        self.mail.send(order.customer_email, f"Receipt for order {order.number}", f"We received {money(amount_cents)}.")

    def on_shipped(self, sender, order, tracking):
        self.sms.send(order.customer_phone, f"Order {order.number} is on its way", tracking)

    def on_cancelled(self, sender, order, reason):
        self.mail.send(order.customer_email, f"Order {order.number} cancelled", reason)


class SalesTally:
    """Revenue counters for the dashboard."""

    def __init__(self):
        self.paid_cents = 0
        self.cancelled = 0
        order_paid.connect(self.on_paid)
        order_cancelled.connect(self.on_cancelled)

    def on_paid(self, sender, order, amount_cents):
        self.paid_cents += amount_cents

    def on_cancelled(self, sender, order, reason):
        self.cancelled += 1
