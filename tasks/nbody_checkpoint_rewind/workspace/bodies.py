"""Bodies of a simulated planetary system."""
from dataclasses import dataclass

from vendor.vecmath import AU_M, Vec3

SUN_KG = 1.988_47e30
EARTH_KG = 5.9722e24
MOON_KG = 7.342e22


@dataclass
class Body:
    name: str
    mass: float
    pos: Vec3
    vel: Vec3

    def momentum(self):
        return self.vel * self.mass

    def kinetic(self):
        return 0.5 * self.mass * self.vel.dot(self.vel)


def sun_earth_moon():
    """The three bodies on the x axis, moving along y: close enough to real orbits for tests."""
    return [
        Body("sun", SUN_KG, Vec3(0, 0, 0), Vec3(0, 0, 0)),
        Body("earth", EARTH_KG, Vec3(AU_M, 0, 0), Vec3(0, 29_780.0, 0)),
        Body("moon", MOON_KG, Vec3(AU_M + 384_400_000.0, 0, 0), Vec3(0, 29_780.0 + 1_022.0, 0)),
    ]


def centre_of_mass(bodies):
    total = sum(b.mass for b in bodies)
    weighted = Vec3()
    for b in bodies:
        weighted += b.pos * b.mass
    return weighted / total
