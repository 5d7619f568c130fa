"""Ticket prices: the hall is priced by row band, and groups get a discount."""
from dataclasses import dataclass

GROUP_SIZE = 6
GROUP_DISCOUNT_PERCENT = 10


@dataclass(frozen=True)
class PriceBands:
    """Price in cents per seat by row letter; rows not listed pay `standard`."""

    standard: int
    by_row: dict[str, int]

    def seat_price(self, seat: str) -> int:
        return self.by_row.get(seat[0].upper(), self.standard)

    def order_total(self, seats: list[str]) -> int:
        total = sum(self.seat_price(s) for s in seats)
        if len(seats) >= GROUP_SIZE:
            total -= total * GROUP_DISCOUNT_PERCENT // 100
        return total


def flat(price: int) -> PriceBands:
    return PriceBands(price, {})
