"""Quantities the analysis notebooks read off a simulation."""
from vendor.vecmath import AU_M, Vec3, angle_between, cross


def distance_au(sim, a, b):
    return (sim.body(a).pos - sim.body(b).pos).norm() / AU_M


def track(sim, name, every, samples):
    """Positions of one body every `every` steps, copied so later steps do not change them."""
    points = []
    for _ in range(samples):
        sim.run(every)
        points.append(tuple(sim.body(name).pos))
    return points


def relative_energy_drift(sim, steps):
    before = sim.energy()
    sim.run(steps)
    return abs((sim.energy() - before) / before)


def angular_momentum(sim):
    """Total L = sum of r x p about the origin; conserved by the integrator up to rounding."""
    total = Vec3()
    for body in sim.bodies:
        total += cross(body.pos, body.momentum())
    return total


def orbit_angle(sim, name, centre, start):
    """Angle swept by `name` around `centre` since the position `start` (a tuple)."""
    return angle_between(Vec3(*start) - sim.body(centre).pos, sim.body(name).pos - sim.body(centre).pos)
