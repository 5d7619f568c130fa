"""A pick-and-place cycle: in to the fixture along a taught path, grip, out the same way, over to the
drop point, release, and back home."""
from dataclasses import dataclass, field

from geometry import subdivide
from safety import CELL


@dataclass
class Move:
    kind: str
    points: list
    seconds: float = 0.0


@dataclass
class Cycle:
    name: str
    moves: list = field(default_factory=list)

    def seconds(self):
        return round(sum(m.seconds for m in self.moves), 2)

    def all_points(self):
        return [p for m in self.moves for p in m.points]


def pick_and_place(library, approach_name, drop, home, grip_s=0.4, release_s=0.3, max_step=50.0):
    approach = library.get(approach_name)
    leave = approach.reversed()
    cycle = Cycle(f"{approach_name}->drop")
    cycle.moves.append(Move("path", subdivide(approach.points, max_step), approach.seconds()))
    cycle.moves.append(Move("grip", [approach.end()], grip_s))
    cycle.moves.append(Move("path", subdivide(leave.points, max_step), leave.seconds()))
    transfer = [leave.end(), leave.end().offset(dz=150), drop.offset(dz=150), drop]
    cycle.moves.append(Move("linear", subdivide(transfer, max_step), 0.0))
    cycle.moves.append(Move("release", [drop], release_s))
    back = [drop, drop.offset(dz=150), home]
    cycle.moves.append(Move("linear", subdivide(back, max_step), 0.0))
    CELL.check_all(cycle.all_points())
    return cycle


def describe(cycle):
    """'grip 1, release 1, 6 moves, 4.90 s' for the cell's HMI."""
    kinds = [m.kind for m in cycle.moves]
    return f"grip {kinds.count('grip')}, release {kinds.count('release')}, {len(kinds)} moves, {cycle.seconds():.2f} s"
