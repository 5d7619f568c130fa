"""The brewery's production ledger: packaged volume by style, for the monthly returns."""
from collections import defaultdict

from batches import Batch

_litres_by_style = defaultdict(float)


class ProductionLedger:
    def __init__(self, brewery):
        self.brewery = brewery
        self.batches = {}

    def brew(self, batch_id, recipe_name, day):
        if batch_id in self.batches:
            raise ValueError(f"batch {batch_id} already exists")
        self.batches[batch_id] = Batch(batch_id, recipe_name, day)
        return self.batches[batch_id]

    def package(self, batch_id, litres):
        batch = self.batches[batch_id]
        batch.package(litres)
        _litres_by_style[batch.recipe.style] += litres

    def litres_by_style(self):
        return dict(sorted(_litres_by_style.items()))

    def total_litres(self):
        return sum(self.litres_by_style().values())

    def losses(self):
        return {b.batch_id: b.losses_litres for b in self.batches.values() if b.packaged_litres is not None}
