"""Weekly travelcards: unlimited travel within a zone range; the advisor compares them with pay-as-you-go."""
from dataclasses import dataclass

from network import station

WEEKLY_PRICE = {(1, 2): 3900, (1, 3): 4600, (1, 4): 5600, (1, 6): 7100, (2, 6): 5200}


@dataclass(frozen=True)
class Travelcard:
    card: str
    low_zone: int
    high_zone: int

    def __post_init__(self):
        if (self.low_zone, self.high_zone) not in WEEKLY_PRICE:
            raise ValueError(f"no weekly travelcard for zones {self.low_zone}-{self.high_zone}")

    @property
    def price(self):
        return WEEKLY_PRICE[(self.low_zone, self.high_zone)]

    def covers(self, journey):
        if journey.incomplete:
            return False
        zones = {station(journey.origin).zone, station(journey.destination).zone}
        return all(self.low_zone <= z <= self.high_zone for z in zones)


def payg_week(daily_charges):
    """Sum of a card's capped daily charges over a week: daily_charges is [(pence, saved)]."""
    return sum(charged for charged, _ in daily_charges)


def advise(card, week_journeys, daily_charges):
    """The cheapest travelcard covering every journey of the week, if it beats pay-as-you-go."""
    payg = payg_week(daily_charges)
    best = None
    for (low, high), price in sorted(WEEKLY_PRICE.items(), key=lambda kv: kv[1]):
        tc = Travelcard(card, low, high)
        if all(tc.covers(j) for j in week_journeys if j.card == card) and price < payg:
            best = tc
            break
    return best, payg
