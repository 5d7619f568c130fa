"""Products and angles built on Vec3."""
import math

from .vec import Vec3


def cross(a, b):
    return Vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)


def angle_between(a, b):
    """Radians in [0, pi]; the zero vector has no direction."""
    na, nb = a.norm(), b.norm()
    if na == 0 or nb == 0:
        raise ValueError("the zero vector has no direction")
    return math.acos(max(-1.0, min(1.0, a.dot(b) / (na * nb))))


def project(a, onto):
    n2 = onto.dot(onto)
    if n2 == 0:
        raise ValueError("cannot project onto the zero vector")
    return onto * (a.dot(onto) / n2)
