"""Shipment manifests. Each revision filed with customs must stay exactly as it was filed."""
import copy
from dataclasses import dataclass, field


class ManifestError(ValueError):
    pass


@dataclass
class Manifest:
    shipment_id: str
    origin: str
    destination: str
    revision: int = 1
    pallets: list = field(default_factory=list)
    filed: bool = False

    def pallet(self, pallet_id):
        for p in self.pallets:
            if p.pallet_id == pallet_id:
                return p
        raise ManifestError(f"{self.shipment_id}: no pallet {pallet_id}")

    def add_pallet(self, pallet):
        if self.filed:
            raise ManifestError(f"{self.shipment_id} r{self.revision} is filed; revise it first")
        if any(p.pallet_id == pallet.pallet_id for p in self.pallets):
            raise ManifestError(f"duplicate pallet {pallet.pallet_id}")
        self.pallets.append(pallet)
        return pallet

    def remove_pallet(self, pallet_id):
        if self.filed:
            raise ManifestError(f"{self.shipment_id} r{self.revision} is filed; revise it first")
        self.pallets.remove(self.pallet(pallet_id))

    def file(self):
        self.filed = True
        return self

    def revise(self):
        """A new, unfiled revision starting from this one's contents."""
        draft = copy.deepcopy(self)
        draft.revision = self.revision + 1
        draft.filed = False
        return draft

    def changes_since(self, earlier):
        """Pallet ids added, removed and changed in content relative to an earlier revision."""
        before = {p.pallet_id: p.items for p in earlier.pallets}
        after = {p.pallet_id: p.items for p in self.pallets}
        return {
            "added": sorted(set(after) - set(before)),
            "removed": sorted(set(before) - set(after)),
            "changed": sorted(pid for pid in set(after) & set(before) if after[pid] != before[pid]),
        }

    def totals(self, catalog):
        return {
            "pallets": len(self.pallets),
            "gross_kg": sum((p.gross_kg(catalog) for p in self.pallets), 0),
            "value": sum((p.value(catalog) for p in self.pallets), 0),
        }
