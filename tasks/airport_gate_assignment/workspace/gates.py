"""Gates: the largest aircraft each takes, and neighbours that a wide-body blocks."""
from dataclasses import dataclass, field

from flights import SIZE_ORDER


@dataclass(frozen=True)
class Gate:
    name: str
    max_size: str
    pier: str
    customs: bool = False
    neighbours: tuple = ()

    def fits(self, flight):
        return SIZE_ORDER.index(flight.size) <= SIZE_ORDER.index(self.max_size) and (self.customs or not flight.international)


@dataclass
class Terminal:
    gates: dict = field(default_factory=dict)

    def add(self, gate):
        self.gates[gate.name] = gate
        return gate

    def candidates(self, flight):
        """Gates that fit, smallest first so big gates stay free for big aircraft."""
        fitting = [g for g in self.gates.values() if g.fits(flight)]
        return sorted(fitting, key=lambda g: (SIZE_ORDER.index(g.max_size), g.name))
