"""Newtonian gravity and the integrator (semi-implicit Euler: velocities first, then positions)."""
from vendor.vecmath import G, Vec3

SOFTENING_M = 1.0e3


def accelerations(bodies):
    acc = [Vec3() for _ in bodies]
    for i, a in enumerate(bodies):
        for j in range(i + 1, len(bodies)):
            b = bodies[j]
            d = b.pos - a.pos
            r2 = d.dot(d) + SOFTENING_M**2
            inv_r3 = 1.0 / (r2 * r2**0.5)
            acc[i] += d * (G * b.mass * inv_r3)
            acc[j] -= d * (G * a.mass * inv_r3)
    return acc


def step(bodies, dt):
    for body, a in zip(bodies, accelerations(bodies)):
        body.vel += a * dt
    for body in bodies:
        body.pos += body.vel * dt


def energy(bodies):
    kinetic = sum(b.kinetic() for b in bodies)
    potential = 0.0
    for i, a in enumerate(bodies):
        for b in bodies[i + 1:]:
            potential -= G * a.mass * b.mass / (b.pos - a.pos).norm()
    return kinetic + potential
