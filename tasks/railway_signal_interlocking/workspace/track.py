"""Track layout: blocks joined end to end, with points (switches) at junctions."""
from dataclasses import dataclass, field


@dataclass
class Block:
    name: str
    length_m: int
    occupied: bool = False

    def __post_init__(self):
        if self.length_m <= 0:
            raise ValueError(f"block {self.name}: length must be positive")


@dataclass
class Points:
    name: str
    normal_to: str
    reverse_to: str
    position: str = "normal"

    def leads_to(self):
        return self.normal_to if self.position == "normal" else self.reverse_to

    def throw(self, position):
        if position not in ("normal", "reverse"):
            raise ValueError(f"points {self.name}: unknown position {position!r}")
        self.position = position


@dataclass
class TrackLayout:
    blocks: dict = field(default_factory=dict)
    points: dict = field(default_factory=dict)
    links: dict = field(default_factory=dict)

    def add_block(self, name, length_m):
        if name in self.blocks:
            raise ValueError(f"duplicate block {name}")
        self.blocks[name] = Block(name, length_m)
        self.links.setdefault(name, set())
        return self.blocks[name]

    def link(self, a, b):
        for n in (a, b):
            if n not in self.blocks:
                raise KeyError(f"no block {n}")
        self.links[a].add(b)
        self.links[b].add(a)

    def add_points(self, name, normal_to, reverse_to):
        self.points[name] = Points(name, normal_to, reverse_to)
        return self.points[name]

    def is_path(self, names):
        return all(b in self.links[a] for a, b in zip(names, names[1:]))

    def occupy(self, name, occupied=True):
        self.blocks[name].occupied = occupied

    def length_of(self, names):
        return sum(self.blocks[n].length_m for n in names)
