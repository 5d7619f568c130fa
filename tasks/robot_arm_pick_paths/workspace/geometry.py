"""Points in the cell's frame, in millimetres."""
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    z: float

    def distance(self, other):
        return math.dist((self.x, self.y, self.z), (other.x, other.y, other.z))

    def offset(self, dx=0.0, dy=0.0, dz=0.0):
        return Point(self.x + dx, self.y + dy, self.z + dz)

    def lerp(self, other, t):
        return Point(self.x + (other.x - self.x) * t, self.y + (other.y - self.y) * t, self.z + (other.z - self.z) * t)


def path_length(points):
    return sum(a.distance(b) for a, b in zip(points, points[1:]))


def subdivide(points, max_step):
    """Insert points so no segment is longer than max_step (for linear moves the controller checks)."""
    if not points:
        return []
    out = [points[0]]
    for a, b in zip(points, points[1:]):
        steps = max(1, math.ceil(a.distance(b) / max_step))
        for i in range(1, steps + 1):
            out.append(a.lerp(b, i / steps))
    return out
