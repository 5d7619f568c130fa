"""A drone with position and velocity, integrated with explicit Euler steps."""
from vector import Vec2


class Drone:
    def __init__(self, name: str, pos: Vec2, velocity: Vec2, max_speed: float = 12.0):
        self.name = name
        self.pos = pos
        self.velocity = velocity
        self.max_speed = max_speed

    def heading(self) -> Vec2:
        """Unit vector the nose points along (the direction of travel)."""
        return self.velocity.normalized()

    def speed(self) -> float:
        return self.velocity.length()

    def step(self, dt: float, accel: Vec2) -> None:
        self.velocity = (self.velocity + accel * dt).clamped(self.max_speed)
        self.pos = self.pos + self.velocity * dt
