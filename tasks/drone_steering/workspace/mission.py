"""Waypoint missions: fly to each waypoint in turn, within a geofence."""
from dataclasses import dataclass, field

from autopilot import seek, telemetry
from drone import Drone
from vector import Vec2


class GeofenceBreach(RuntimeError):
    pass


@dataclass
class Geofence:
    min_corner: Vec2
    max_corner: Vec2

    def contains(self, p: Vec2) -> bool:
        return self.min_corner.x <= p.x <= self.max_corner.x and self.min_corner.y <= p.y <= self.max_corner.y


@dataclass
class Mission:
    waypoints: list[Vec2]
    arrival_radius: float = 2.0
    fence: Geofence | None = None
    reached: list[int] = field(default_factory=list)

    def run(self, drone: Drone, dt: float = 0.5, max_steps: int = 400, log: list[str] | None = None) -> int:
        """Fly the mission; returns the number of steps taken."""
        target = 0
        for step in range(max_steps):
            if target == len(self.waypoints):
                return step
            if (self.waypoints[target] - drone.pos).length() <= self.arrival_radius:
                self.reached.append(step)
                target += 1
                continue
            drone.step(dt, seek(drone, self.waypoints[target]))
            if self.fence and not self.fence.contains(drone.pos):
                raise GeofenceBreach(f"{drone.name} left the geofence at {drone.pos}")
            if log is not None:
                log.append(telemetry(drone))
        raise TimeoutError(f"{drone.name} reached {target} of {len(self.waypoints)} waypoints in {max_steps} steps")
