"""Stock batches with expiry dates, used first-expiring-first-out, and the reorder list."""
from dataclasses import dataclass
from datetime import date


@dataclass
class Batch:
    drug: str
    strength: str
    lot: str
    expires: date
    units: int


class Shelf:
    def __init__(self, reorder_levels=None):
        self.batches = []
        self.reorder_levels = dict(reorder_levels or {})

    def add(self, batch):
        if batch.units <= 0:
            raise ValueError(f"lot {batch.lot}: no units")
        self.batches.append(batch)

    def on_hand(self, drug, strength, today):
        return sum(b.units for b in self.batches if (b.drug, b.strength) == (drug, strength) and b.expires >= today)

    def pick(self, drug, strength, units, today):
        """Take units from the batches that expire first; returns [(lot, units)]."""
        if self.on_hand(drug, strength, today) < units:
            raise ValueError(f"not enough {drug} {strength} in date")
        picked = []
        for b in sorted(self.batches, key=lambda b: (b.expires, b.lot)):
            if (b.drug, b.strength) != (drug, strength) or b.expires < today or b.units == 0:
                continue
            take = min(units, b.units)
            b.units -= take
            units -= take
            picked.append((b.lot, take))
            if units == 0:
                break
        return picked

    def expired(self, today):
        return sorted(b.lot for b in self.batches if b.expires < today and b.units > 0)

    def reorder(self, today):
        out = []
        for (drug, strength), level in sorted(self.reorder_levels.items()):
            have = self.on_hand(drug, strength, today)
            if have < level:
                out.append((drug, strength, level - have))
        return out
