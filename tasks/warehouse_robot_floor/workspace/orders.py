"""Pick orders: each is a shelf face the nearest idle robot must reach."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Pick:
    order_id: str
    cell: tuple
    items: int


def nearest_robot(fleet, pick, busy=()):
    """The idle robot with the shortest route to the pick face (ties go to the first name)."""
    floor = fleet.floor()
    best = None
    for name, robot in sorted(fleet.robots.items()):
        if name in busy:
            continue
        route = floor.route(robot.position, pick.cell)
        if route is None:
            continue
        if best is None or len(route) < best[1]:
            best = (name, len(route))
    return None if best is None else best[0]


def assign(fleet, picks):
    """Greedy: each pick, in order, to the nearest robot not yet given one this round."""
    busy, plan = set(), {}
    for pick in picks:
        name = nearest_robot(fleet, pick, busy)
        if name is not None:
            plan[pick.order_id] = name
            busy.add(name)
    return plan


def unassigned(picks, plan):
    """Picks left for the next round."""
    return [p.order_id for p in picks if p.order_id not in plan]
