"""Kegs filled from packaged batches and poured in the taproom."""
from dataclasses import dataclass

KEG_SIZES = (20, 30, 50)
PINT_LITRES = 0.568


@dataclass
class Keg:
    keg_id: str
    batch_id: str
    size: int
    remaining: float

    def pour(self, litres):
        if litres > self.remaining + 1e-9:
            raise ValueError(f"{self.keg_id} has only {self.remaining:.2f} l left")
        self.remaining = round(self.remaining - litres, 3)

    def pints_left(self):
        return int(self.remaining // PINT_LITRES)


def fill_kegs(batch, size, prefix):
    """As many full kegs of one size as the packaged volume allows; the rest goes to cans."""
    if size not in KEG_SIZES:
        raise ValueError(f"no {size} l kegs")
    if batch.packaged_litres is None:
        raise ValueError(f"{batch.batch_id} is not packaged")
    count = int(batch.packaged_litres // size)
    kegs = [Keg(f"{prefix}{i + 1:03d}", batch.batch_id, size, float(size)) for i in range(count)]
    return kegs, round(batch.packaged_litres - count * size, 1)


def keg_report(kegs):
    """Kegs still holding beer, fullest first."""
    live = [k for k in kegs if k.remaining > 0]
    return [f"{k.keg_id}: {k.pints_left()} pints" for k in sorted(live, key=lambda k: (-k.remaining, k.keg_id))]
