from arm import Arm
from geometry import segments_too_close
from program_io import dump_programs, load_programs
from safety import violations
from trajectory import Trajectory


class CollisionRisk(RuntimeError):
    pass


class Workcell:
    def __init__(self, clearance=0.05, zones=()):
        self.zones = tuple(zones)
        self.arms = {}
        self.programs = {}
        self.clearance = clearance

    def add_arm(self, name, links, base):
        self.arms[name] = Arm(name, links, base)
        self.programs[name] = Trajectory(name)
        return self.arms[name]

    def teach(self, name, angles):
        self.programs[name].add(angles)

    def check(self):
        names = sorted(self.arms)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if segments_too_close(self.arms[a].points(), self.arms[b].points(), self.clearance):
                    raise CollisionRisk(f"{a} and {b} closer than {self.clearance} m")
        for name in names:
            hits = violations(self.arms[name].points(), self.zones)
            if hits:
                raise CollisionRisk(f"{name} enters keep-out zone {hits[0][0]}")

    def run(self, steps=4):
        longest = max((len(p.interpolate(steps)) for p in self.programs.values()), default=0)
        paths = {n: p.interpolate(steps) for n, p in self.programs.items()}
        for tick in range(longest):
            for name, path in paths.items():
                if path:
                    self.arms[name].move_to(path[min(tick, len(path) - 1)])
            self.check()
        return {name: arm.tool() for name, arm in sorted(self.arms.items())}

    def home_all(self):
        for arm in self.arms.values():
            arm.home()

    def export(self):
        return dump_programs(self.programs)

    def import_programs(self, text):
        loaded = load_programs(text)
        unknown = sorted(set(loaded) - set(self.arms))
        if unknown:
            raise KeyError(f"no such arm: {', '.join(unknown)}")
        self.programs.update(loaded)
