"""Order desks: shop counter, phone line and the wholesale portal all book against one ledger."""
import itertools
import threading
from dataclasses import dataclass, field

from ledger import OutOfStock
from menu import combined_needs, product

_numbers = itertools.count(1001)
_numbers_lock = threading.Lock()


def next_order_number():
    with _numbers_lock:
        return next(_numbers)


@dataclass
class Order:
    customer: str
    lines: list
    number: int = field(default_factory=next_order_number)
    status: str = "new"
    reason: str = None

    def total_cents(self):
        return sum(product(code).price_cents * qty for code, qty in self.lines)


class OrderDesk:
    def __init__(self, name, ledger):
        self.name = name
        self.ledger = ledger
        self.accepted = []
        self.refused = []

    def place(self, customer, lines):
        order = Order(customer, list(lines))
        try:
            self.ledger.take_all(combined_needs(order.lines))
        except OutOfStock as exc:
            order.status, order.reason = "refused", str(exc)
            self.refused.append(order)
            return order
        order.status = "accepted"
        self.accepted.append(order)
        return order

    def cancel(self, order):
        if order.status != "accepted":
            raise ValueError(f"order {order.number} is {order.status}")
        for ingredient, grams in combined_needs(order.lines).items():
            self.ledger.put_back(ingredient, grams)
        order.status = "cancelled"
        self.accepted.remove(order)


def run_concurrently(jobs, timeout=2.0):
    """jobs: [(desk, customer, lines)]; each in its own daemon thread. Returns (orders, threads still running)."""
    results = [None] * len(jobs)

    def work(i, desk, customer, lines):
        results[i] = desk.place(customer, lines)

    threads = [threading.Thread(target=work, args=(i, *job), daemon=True) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    return results, [t.name for t in threads if t.is_alive()]
