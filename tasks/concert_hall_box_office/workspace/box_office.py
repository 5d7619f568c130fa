"""Orders at the box office: several seats at once, a booking fee, refunds."""
import itertools
from dataclasses import dataclass, field

BOOKING_FEE = 150
_refs = itertools.count(1)


@dataclass
class Order:
    event: object
    customer: str
    seats: list
    tickets: int = 0
    fee: int = 0
    ref: str = field(default_factory=lambda: f"ORD{next(_refs):05d}")

    @property
    def total(self):
        return self.tickets + self.fee


def place_order(event, customer, seats):
    """All seats or none."""
    done = []
    try:
        for seat in seats:
            event.sell(seat, customer)
            done.append(seat)
    except Exception:
        for seat in done:
            del event.sold[seat]
        raise
    tickets = sum(event.sold[s][1] for s in seats)
    return Order(event, customer, list(seats), tickets, BOOKING_FEE if seats else 0)


def refund(order):
    """Tickets are refunded at the price paid; the booking fee is kept."""
    for seat in order.seats:
        del order.event.sold[seat]
    return order.tickets


def best_available(event, section_code, count):
    """`count` adjacent seats in one row of the section, front rows first, or None."""
    rows = {}
    for seat in event.available(section_code):
        row, number = seat.split("-")[1][0], int(seat.split("-")[1][1:])
        rows.setdefault(row, []).append(number)
    for row in sorted(rows):
        numbers = sorted(rows[row])
        for i in range(len(numbers) - count + 1):
            run = numbers[i:i + count]
            if run[-1] - run[0] == count - 1:
                return [f"{section_code}-{row}{n}" for n in run]
    return None
