class Trajectory:
    def __init__(self, arm_name, waypoints=None):
        self.arm_name = arm_name
        self.waypoints = list(waypoints or [])

    def add(self, angles):
        self.waypoints.append(tuple(angles))
        return self

    def interpolate(self, steps):
        if steps < 1:
            raise ValueError("steps must be at least 1")
        if len(self.waypoints) < 2:
            return list(self.waypoints)
        out = [self.waypoints[0]]
        for a, b in zip(self.waypoints, self.waypoints[1:]):
            for s in range(1, steps + 1):
                t = s / steps
                out.append(tuple(round(x + (y - x) * t, 4) for x, y in zip(a, b)))
        return out

    def max_joint_speed(self, seconds_per_segment):
        fastest = 0.0
        for a, b in zip(self.waypoints, self.waypoints[1:]):
            for x, y in zip(a, b):
                fastest = max(fastest, abs(y - x) / seconds_per_segment)
        return fastest
