from dataclasses import dataclass

FEATURES = ("monitor", "standing", "window", "quiet")


class DeskError(ValueError):
    pass


@dataclass(frozen=True)
class Desk:
    code: str
    floor: int
    features: frozenset = frozenset()

    def __post_init__(self):
        unknown = set(self.features) - set(FEATURES)
        if unknown:
            raise DeskError(f"{self.code}: unknown features {sorted(unknown)}")

    def has(self, wanted):
        return set(wanted) <= set(self.features)


def floor_plan(spec):
    """spec: 'A1:monitor,window A2 B1:standing' -> desks (floor from the letter)."""
    desks = []
    for token in spec.split():
        code, _, feats = token.partition(":")
        floor = ord(code[0].upper()) - ord("A") + 1
        features = frozenset(f for f in feats.split(",") if f)
        desks.append(Desk(code.upper(), floor, features))
    if len({d.code for d in desks}) != len(desks):
        raise DeskError("duplicate desk codes")
    return desks
