"""The cell's safety envelope: the arm must stay inside the fenced box and above the table."""
from dataclasses import dataclass


class EnvelopeViolation(ValueError):
    pass


@dataclass(frozen=True)
class Envelope:
    x_range: tuple = (-600.0, 600.0)
    y_range: tuple = (-600.0, 600.0)
    z_min: float = 5.0
    z_max: float = 900.0

    def check(self, point):
        if not self.x_range[0] <= point.x <= self.x_range[1]:
            raise EnvelopeViolation(f"x={point.x} outside {self.x_range}")
        if not self.y_range[0] <= point.y <= self.y_range[1]:
            raise EnvelopeViolation(f"y={point.y} outside {self.y_range}")
        if not self.z_min <= point.z <= self.z_max:
            raise EnvelopeViolation(f"z={point.z} outside [{self.z_min}, {self.z_max}]")

    def check_all(self, points):
        for p in points:
            self.check(p)
        return True


CELL = Envelope()
