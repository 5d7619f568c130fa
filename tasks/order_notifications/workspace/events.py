"""The order lifecycle signals this service publishes."""
from vendor.minisignal import signal

order_placed = signal("order-placed", "sent with order=<Order> when checkout completes")
order_paid = signal("order-paid", "sent with order=<Order>, amount_cents=<int> when payment captures")
order_shipped = signal("order-shipped", "sent with order=<Order>, tracking=<str>")
order_cancelled = signal("order-cancelled", "sent with order=<Order>, reason=<str>")
