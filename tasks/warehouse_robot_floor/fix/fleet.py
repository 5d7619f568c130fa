"""The fleet controller. The floor map is loaded from the warehouse system the first time a robot
asks for it; loading is slow, so it is done once and shared."""
import threading


class Fleet:
    def __init__(self, loader):
        self._loader = loader
        self._floor = None
        self._load_lock = threading.Lock()
        self.loads = 0
        self.robots = {}

    def floor(self):
        if self._floor is None:
            with self._load_lock:
                if self._floor is None:
                    floor = self._loader()
                    self.loads += 1
                    self._floor = floor
        return self._floor

    def register(self, robot):
        if robot.name in self.robots:
            raise ValueError(f"robot {robot.name} already registered")
        self.robots[robot.name] = robot
        robot.fleet = self
        return robot

    def reservations(self):
        out = {}
        for cell, robot in self.floor().reserved.items():
            out.setdefault(robot, []).append(cell)
        return {r: sorted(cells) for r, cells in sorted(out.items())}

    def status(self):
        """One line per robot for the floor supervisor's screen."""
        lines = []
        for name, robot in sorted(self.robots.items()):
            state = "driving" if robot.route else "idle"
            lines.append(f"{name} at {robot.position} battery {robot.battery}% {state}")
        return lines
