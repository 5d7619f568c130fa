"""Steering toward waypoints (Reynolds-style seek) and the telemetry line for the map."""
from drone import Drone
from vector import Vec2


def seek(drone: Drone, target: Vec2, max_accel: float = 4.0) -> Vec2:
    """Acceleration that turns the drone's velocity toward `target` at full speed."""
    desired = (target - drone.pos).normalized() * drone.max_speed
    return (desired - drone.velocity).clamped(max_accel)


def telemetry(drone: Drone) -> str:
    speed = drone.speed()
    h = drone.heading()
    return f"{drone.name} at ({drone.pos.x:.1f}, {drone.pos.y:.1f}) heading {h.angle_deg():.0f} deg, {speed:.1f} m/s"


def fly(drone: Drone, target: Vec2, seconds: float, dt: float = 0.5, log: list[str] | None = None) -> None:
    for _ in range(round(seconds / dt)):
        drone.step(dt, seek(drone, target))
        if log is not None:
            log.append(telemetry(drone))
