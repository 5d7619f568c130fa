from geometry import forward

JOINT_LIMITS = (-170.0, 170.0)


class JointLimit(ValueError):
    pass


class Arm:
    def __init__(self, name, links, base=(0.0, 0.0), angles=None):
        angles = [0.0] * len(links) if angles is None else list(angles)
        if len(links) != len(angles):
            raise ValueError(f"{name}: {len(links)} links but {len(angles)} angles")
        self.name = name
        self.links = tuple(links)
        self.base = base
        self.angles = angles

    def move_joint(self, index, angle):
        low, high = JOINT_LIMITS
        if not low <= angle <= high:
            raise JointLimit(f"{self.name} joint {index}: {angle} outside {low}..{high}")
        self.angles[index] = angle

    def move_to(self, angles):
        for i, a in enumerate(angles):
            self.move_joint(i, a)

    def points(self):
        return forward(self.links, self.angles, self.base)

    def tool(self):
        return self.points()[-1]

    def reach(self):
        return sum(self.links)

    def home(self):
        for i in range(len(self.angles)):
            self.angles[i] = 0.0
