"""Taught paths: named lists of waypoints that the operator records with the pendant."""
from geometry import path_length


class TaughtPath:
    def __init__(self, name, points, speed_mm_s=250.0):
        if len(points) < 2:
            raise ValueError(f"path {name} needs at least two points")
        self.name = name
        self.points = points
        self.speed_mm_s = speed_mm_s

    def start(self):
        return self.points[0]

    def end(self):
        return self.points[-1]

    def reversed(self):
        """The same path driven backwards, e.g. to leave a fixture the way the arm came in."""
        return TaughtPath(self.name + "-back", self.points[::-1], self.speed_mm_s)

    def seconds(self):
        return round(path_length(self.points) / self.speed_mm_s, 2)

    def with_speed(self, speed_mm_s):
        """A copy of the path taught at another speed (the pendant's speed override)."""
        if speed_mm_s <= 0:
            raise ValueError("speed must be positive")
        return TaughtPath(self.name, list(self.points), speed_mm_s)


class PathLibrary:
    def __init__(self):
        self._paths = {}

    def teach(self, name, points, speed_mm_s=250.0):
        self._paths[name] = TaughtPath(name, points, speed_mm_s)
        return self._paths[name]

    def names(self):
        return sorted(self._paths)

    def get(self, name):
        try:
            return self._paths[name]
        except KeyError:
            raise KeyError(f"no taught path {name!r}") from None
