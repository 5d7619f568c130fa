from dataclasses import dataclass


@dataclass(frozen=True)
class KeepOut:
    name: str
    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, point):
        x, y = point
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1


def violations(arm_points, zones):
    hits = []
    for zone in zones:
        for i, point in enumerate(arm_points[1:], start=1):
            if zone.contains(point):
                hits.append((zone.name, i))
    return hits
