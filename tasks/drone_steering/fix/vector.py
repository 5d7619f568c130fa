"""2D vectors for the flight simulator."""
import math


class Vec2:
    __slots__ = ("x", "y")

    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y

    def __add__(self, other: "Vec2") -> "Vec2":
        return Vec2(self.x + other.x, self.y + other.y)

    def __sub__(self, other: "Vec2") -> "Vec2":
        return Vec2(self.x - other.x, self.y - other.y)

    def __mul__(self, k: float) -> "Vec2":
        return Vec2(self.x * k, self.y * k)

    def __repr__(self) -> str:
        return f"Vec2({self.x:.3f}, {self.y:.3f})"

    def length(self) -> float:
        return math.hypot(self.x, self.y)

    def scale(self, k: float) -> "Vec2":
        """Scale in place (used in the integrator's hot loop); returns self for chaining."""
        self.x *= k
        self.y *= k
        return self

    def normalized(self) -> "Vec2":
        """Unit vector in the same direction; the zero vector stays zero."""
        n = self.length()
        return self * (1 / n) if n else Vec2(0.0, 0.0)

    def clamped(self, max_length: float) -> "Vec2":
        n = self.length()
        return self * (max_length / n) if n > max_length else Vec2(self.x, self.y)

    def angle_deg(self) -> float:
        return math.degrees(math.atan2(self.y, self.x)) % 360
