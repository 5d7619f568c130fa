"""Route setting: a route may be set only if its blocks are free and unlocked and its points can be set."""
from dataclasses import dataclass, field

from signals import DEFAULT_STATE, Signal, aspect_for


class RouteRefused(Exception):
    pass


@dataclass(frozen=True)
class Route:
    name: str
    entry_signal: str
    blocks: tuple
    points: dict = field(default_factory=dict)
    overlap: tuple = ()


class Interlocking:
    def __init__(self, layout):
        self.layout = layout
        self.signals = {}
        self.routes = {}
        self.locks = {}
        self.log = []

    def add_signal(self, name, protects):
        self.signals[name] = Signal(name, protects)
        return self.signals[name]

    def add_route(self, route):
        if route.entry_signal not in self.signals:
            raise KeyError(f"route {route.name}: no signal {route.entry_signal}")
        if not self.layout.is_path(list(route.blocks)):
            raise ValueError(f"route {route.name}: blocks are not a continuous path")
        self.routes[route.name] = route

    def _check(self, route):
        for block in route.blocks + route.overlap:
            holder = self.locks.get(block)
            if holder is not None:
                raise RouteRefused(f"{route.name}: block {block} locked by {holder}")
            if self.layout.blocks[block].occupied:
                raise RouteRefused(f"{route.name}: block {block} occupied")

    def free_blocks_ahead(self, route, horizon=3):
        last = route.blocks[-1]
        seen, frontier, free = {last, *route.blocks}, [last], 0
        while frontier and free < horizon:
            nxt = []
            for b in frontier:
                for n in sorted(self.layout.links[b] - seen):
                    seen.add(n)
                    if self.layout.blocks[n].occupied or n in self.locks:
                        continue
                    free += 1
                    nxt.append(n)
            frontier = nxt
        return min(free, horizon)

    def request(self, name):
        route = self.routes[name]
        self._check(route)
        for points_name, position in route.points.items():
            self.layout.points[points_name].throw(position)
        for block in route.blocks + route.overlap:
            self.locks[block] = name
        aspect = aspect_for(self.free_blocks_ahead(route))
        self.signals[route.entry_signal].clear(aspect, name)
        self.log.append(("set", name, aspect))
        return aspect

    def release(self, name):
        route = self.routes[name]
        self.signals[route.entry_signal].to_danger()
        for block in route.blocks + route.overlap:
            if self.locks.get(block) == name:
                del self.locks[block]
        self.log.append(("released", name, None))

    def reset_all(self):
        """Emergency reset: every signal to danger and every lock dropped."""
        self.locks.clear()
        for signal in self.signals.values():
            signal.state = dict(DEFAULT_STATE)
            signal.to_danger()
        self.log.append(("reset", None, None))

    def board(self):
        return {name: s.aspect for name, s in sorted(self.signals.items())}
