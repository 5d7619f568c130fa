"""Holds and sales for a performance."""
from pricing import PriceBands, flat
from seatmap import AVAILABLE, HELD, SOLD, SeatMap, SeatTaken


class BoxOffice:
    def __init__(self, seatmap: SeatMap, price: int | PriceBands):
        self.seatmap = seatmap
        self.prices = price if isinstance(price, PriceBands) else flat(price)
        self._holds: dict[str, list[str]] = {}

    def hold(self, customer: str, seats: list[str]) -> None:
        """Reserve seats for a customer until they pay; all or nothing."""
        for seat in seats:
            if self.seatmap.state(seat) != AVAILABLE:
                raise SeatTaken(seat)
        for seat in seats:
            self.seatmap.mark(seat, HELD)
        self._holds.setdefault(customer, []).extend(seats)

    def release(self, customer: str) -> None:
        for seat in self._holds.pop(customer, []):
            self.seatmap.mark(seat, AVAILABLE)

    def checkout(self, customer: str) -> int:
        """Turn a customer's holds into sales; returns the amount charged."""
        seats = self._holds.pop(customer, [])
        for seat in seats:
            self.seatmap.mark(seat, SOLD)
        return self.prices.order_total(seats)

    def hold_best(self, customer: str, size: int) -> list[str]:
        """Hold the best block of `size` seats together; raises SeatTaken if none is left."""
        block = self.seatmap.best_block(size)
        if block is None:
            raise SeatTaken(f"no {size} seats together")
        self.hold(customer, block)
        return block

    def remaining(self) -> int:
        return self.seatmap.count(AVAILABLE)
