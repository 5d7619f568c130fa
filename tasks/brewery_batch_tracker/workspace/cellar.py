"""Fermenter bookings: each vessel holds one batch at a time for a recipe's fermentation days."""
from dataclasses import dataclass, field

FERMENT_DAYS = {"pale ale": 10, "ipa": 12, "stout": 14, "lager": 28, "saison": 12}


@dataclass
class Vessel:
    name: str
    litres: int
    bookings: list = field(default_factory=list)

    def free_on(self, start, days):
        end = start + days
        return all(end <= s or start >= s + d for s, d, _ in self.bookings)


class Cellar:
    def __init__(self, vessels):
        self.vessels = list(vessels)

    def book(self, recipe, start_day, batch_id):
        """The smallest free vessel that fits the batch, from start_day for the style's days."""
        days = FERMENT_DAYS[recipe.style]
        for v in sorted(self.vessels, key=lambda v: (v.litres, v.name)):
            if v.litres >= recipe.batch_litres and v.free_on(start_day, days):
                v.bookings.append((start_day, days, batch_id))
                return v.name, start_day + days
        raise ValueError(f"no vessel free for {batch_id} from day {start_day}")
