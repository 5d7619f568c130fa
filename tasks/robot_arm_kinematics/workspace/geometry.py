import math


def forward(links, angles_deg, base=(0.0, 0.0)):
    """Planar forward kinematics: joint positions from the base out."""
    if len(links) != len(angles_deg):
        raise ValueError("one angle per link")
    x, y = base
    heading = 0.0
    points = [(round(x, 6), round(y, 6))]
    for length, angle in zip(links, angles_deg):
        heading += math.radians(angle)
        x += length * math.cos(heading)
        y += length * math.sin(heading)
        points.append((round(x, 6), round(y, 6)))
    return points


def two_link_ik(l1, l2, x, y, elbow_up=True):
    d2 = x * x + y * y
    cos_q2 = (d2 - l1 * l1 - l2 * l2) / (2 * l1 * l2)
    if not -1.0 <= cos_q2 <= 1.0:
        raise ValueError(f"({x}, {y}) is out of reach")
    q2 = math.acos(cos_q2)
    if elbow_up:
        q2 = -q2
    q1 = math.atan2(y, x) - math.atan2(l2 * math.sin(q2), l1 + l2 * math.cos(q2))
    return round(math.degrees(q1), 4), round(math.degrees(q2), 4)


def distance(a, b):
    return math.hypot(a[0] - b[0], a[1] - b[1])


def segments_too_close(points_a, points_b, clearance):
    for pa in points_a:
        for pb in points_b:
            if distance(pa, pb) < clearance:
                return True
    return False
