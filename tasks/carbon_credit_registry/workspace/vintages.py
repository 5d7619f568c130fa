from dataclasses import dataclass

STANDARDS = ("VCS", "GS", "CAR")


class RegistryError(Exception):
    pass


@dataclass(frozen=True)
class Batch:
    serial: str
    project: str
    vintage: int
    standard: str

    def __post_init__(self):
        if self.standard not in STANDARDS:
            raise RegistryError(f"unknown standard {self.standard}")
        if not 2000 <= self.vintage <= 2100:
            raise RegistryError(f"implausible vintage {self.vintage}")


def serial_range(prefix, start, count):
    if count <= 0:
        raise RegistryError("count must be positive")
    return [f"{prefix}-{n:06d}" for n in range(start, start + count)]


def eligible(batch, min_vintage=None, standards=None):
    if min_vintage is not None and batch.vintage < min_vintage:
        return False
    if standards is not None and batch.standard not in standards:
        return False
    return True


def describe(batches):
    by_vintage = {}
    for b in batches:
        by_vintage.setdefault(b.vintage, 0)
        by_vintage[b.vintage] += 1
    return ", ".join(f"{v}: {n} t" for v, n in sorted(by_vintage.items()))
