"""Scoring schemes for nucleotide alignment."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Scheme:
    match: int = 2
    mismatch: int = -1
    gap: int = -2
    transition: int = None

    def pair(self, a, b):
        if a == "N" or b == "N":
            return 0
        if a == b:
            return self.match
        if self.transition is not None and {a, b} in ({"A", "G"}, {"C", "T"}):
            return self.transition
        return self.mismatch


DEFAULT = Scheme()
TRANSITION_AWARE = Scheme(match=2, mismatch=-2, gap=-3, transition=-1)
