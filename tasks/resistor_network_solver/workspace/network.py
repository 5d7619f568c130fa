"""Nodal analysis of DC resistor networks.

Node 0 is ground. The conductance matrix G is built once per network and
reused for every set of source currents, which is how a sweep stays cheap.
"""
from matrix import Matrix
from solver import solve


class ResistorNetwork:
    def __init__(self, nodes: int):
        self.nodes = nodes  # not counting ground
        self._g = Matrix.zeros(nodes)

    def resistor(self, a: int, b: int, ohms: float) -> None:
        if ohms <= 0:
            raise ValueError("resistance must be positive")
        g = 1.0 / ohms
        for n in (a, b):
            if n:
                self._g[n - 1, n - 1] += g
        if a and b:
            self._g[a - 1, b - 1] -= g
            self._g[b - 1, a - 1] -= g

    def voltages(self, injected: list[float]) -> list[float]:
        """Node voltages for currents injected into nodes 1..n (amps)."""
        return [round(v, 9) for v in solve(self._g, injected)]

    def sweep(self, cases: list[list[float]]) -> list[list[float]]:
        return [self.voltages(c) for c in cases]

    def power(self, volts: list[float]) -> float:
        """Total power dissipated, v . (G v), in watts."""
        return round(sum(v * i for v, i in zip(volts, self._g.times(volts))), 9)
