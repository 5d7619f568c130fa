from dataclasses import dataclass, field


@dataclass
class Robot:
    name: str
    at: str
    battery_pct: float = 100.0
    log: list = field(default_factory=list)
    drain_per_m: float = 0.1

    def drive(self, layout, path):
        if path[0] != self.at:
            raise ValueError(f"{self.name} is at {self.at}, path starts at {path[0]}")
        metres = layout.length(path[1:])
        needed = metres * self.drain_per_m
        if needed > self.battery_pct:
            raise RuntimeError(f"{self.name}: battery too low for {metres} m")
        self.battery_pct = round(self.battery_pct - needed, 2)
        self.at = path[-1]
        self.log.append(" > ".join(path))
        return metres
