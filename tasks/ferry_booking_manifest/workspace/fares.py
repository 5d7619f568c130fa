from dataclasses import dataclass

VEHICLE_BANDS = ((5.0, 42.0), (7.0, 65.0), (12.0, 120.0), (20.0, 210.0))
CABIN_RATES = {"A": 55.0, "B": 80.0}
PASSENGER_FARE = 18.5


class FareError(ValueError):
    pass


@dataclass
class Quote:
    lines: list

    @property
    def total(self):
        return round(sum(amount for _, amount in self.lines), 2)

    def add(self, label, amount):
        self.lines.append((label, round(amount, 2)))


def vehicle_fare(length_m, height_m):
    for max_len, price in VEHICLE_BANDS:
        if length_m <= max_len:
            surcharge = 0.25 if height_m > 2.1 else 0.0
            return price * (1 + surcharge)
    raise FareError(f"vehicle of {length_m} m needs a freight booking")


def cabin_fare(cabin):
    try:
        return CABIN_RATES[cabin.deck] * max(1, cabin.berths // 2)
    except KeyError:
        raise FareError(f"no rate for deck {cabin.deck}") from None
