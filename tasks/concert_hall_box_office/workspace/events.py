"""Events in the hall: each has its own seat sales and its own price table."""
from dataclasses import dataclass, field
from datetime import date

from pricing import PriceTable
from venues import HALL, section_of


class SeatTaken(Exception):
    pass


@dataclass
class Event:
    title: str
    day: date
    pricing: PriceTable = PriceTable()
    sold: dict = field(default_factory=dict)
    held: set = field(default_factory=set)

    def price_of(self, seat_id):
        return self.pricing.price(section_of(seat_id).code)

    def available(self, section_code):
        return [s for s in HALL[section_code].seat_ids() if s not in self.sold and s not in self.held]

    def sell(self, seat_id, customer):
        section_of(seat_id)
        if seat_id in self.sold or seat_id in self.held:
            raise SeatTaken(f"{self.title}: {seat_id} is not available")
        self.sold[seat_id] = (customer, self.price_of(seat_id))
        return self.sold[seat_id][1]

    def hold(self, seat_ids):
        """Seats kept back for the promoter; they can be released for sale later."""
        for s in seat_ids:
            if s in self.sold:
                raise SeatTaken(f"{self.title}: {s} already sold")
        self.held.update(seat_ids)

    def release(self, seat_ids):
        self.held.difference_update(seat_ids)

    def revenue(self):
        return sum(price for _, price in self.sold.values())
