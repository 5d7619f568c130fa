"""A running simulation that can be checkpointed and rewound, for what-if runs from a saved moment."""
from dataclasses import dataclass

from bodies import Body
from physics import energy, step


@dataclass(frozen=True)
class Checkpoint:
    t: float
    bodies: tuple


def _detached(body):
    return Body(body.name, body.mass, body.pos.copy(), body.vel.copy())


class Simulation:
    def __init__(self, bodies, dt):
        if dt <= 0:
            raise ValueError("dt must be positive")
        self.bodies = list(bodies)
        self.dt = dt
        self.t = 0.0
        self.steps = 0

    def run(self, steps):
        for _ in range(steps):
            step(self.bodies, self.dt)
            self.t += self.dt
            self.steps += 1
        return self

    def checkpoint(self):
        return Checkpoint(self.t, tuple(_detached(b) for b in self.bodies))

    def rewind(self, cp):
        self.bodies = [_detached(b) for b in cp.bodies]
        self.t = cp.t
        return self

    def body(self, name):
        return next(b for b in self.bodies if b.name == name)

    def energy(self):
        return energy(self.bodies)
