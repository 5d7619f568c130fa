"""Batches move from brewed, through fermenting readings, to packaged."""
from dataclasses import dataclass, field

from recipes import BOOK, abv


class BatchError(ValueError):
    pass


@dataclass
class Batch:
    batch_id: str
    recipe_name: str
    brewed_on: str
    readings: list = field(default_factory=list)
    packaged_litres: float = None
    losses_litres: float = 0.0

    @property
    def recipe(self):
        return BOOK[self.recipe_name]

    def record_gravity(self, day, gravity):
        if self.packaged_litres is not None:
            raise BatchError(f"{self.batch_id} is already packaged")
        if self.readings and gravity > self.readings[-1][1] + 0.002:
            raise BatchError(f"{self.batch_id}: gravity rose from {self.readings[-1][1]} to {gravity}")
        self.readings.append((day, gravity))

    def attenuated(self):
        """Fermentation is done when the last three readings agree within 0.001."""
        last = [g for _, g in self.readings[-3:]]
        return len(last) == 3 and max(last) - min(last) <= 0.001

    def measured_abv(self):
        if not self.readings:
            return None
        return abv(self.recipe.original_gravity, self.readings[-1][1])

    def package(self, litres):
        if not self.attenuated():
            raise BatchError(f"{self.batch_id} is still fermenting")
        if litres > self.recipe.batch_litres:
            raise BatchError(f"{self.batch_id}: more packaged than brewed")
        self.packaged_litres = litres
        self.losses_litres = self.recipe.batch_litres - litres


def apparent_attenuation(batch):
    """Share of the sugar fermented so far, in percent (None before the first reading)."""
    if not batch.readings:
        return None
    og = batch.recipe.original_gravity
    return round(100 * (og - batch.readings[-1][1]) / (og - 1), 1)


def days_to_settle(batch):
    """Index of the reading from which gravity held steady, or None while still moving."""
    if not batch.attenuated():
        return None
    steady = batch.readings[-1][1]
    for i, (_, g) in enumerate(batch.readings):
        if abs(g - steady) <= 0.001:
            return i + 1
