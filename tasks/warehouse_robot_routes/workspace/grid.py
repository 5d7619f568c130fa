from dataclasses import dataclass


class RouteError(ValueError):
    pass


@dataclass(frozen=True)
class Aisle:
    name: str
    length_m: float
    one_way: bool = False


class Layout:
    def __init__(self):
        self.aisles = {}
        self.links = {}

    def add_aisle(self, name, length_m, one_way=False):
        self.aisles[name] = Aisle(name, length_m, one_way)
        self.links.setdefault(name, set())

    def connect(self, a, b):
        for n in (a, b):
            if n not in self.aisles:
                raise RouteError(f"unknown aisle {n}")
        self.links[a].add(b)
        if not self.aisles[b].one_way:
            self.links[b].add(a)

    def route(self, start, goal):
        """Shortest path by total aisle length (Dijkstra, ties by name)."""
        import heapq

        best = {start: self.aisles[start].length_m}
        heap = [(best[start], start, (start,))]
        while heap:
            cost, node, path = heapq.heappop(heap)
            if node == goal:
                return list(path)
            if cost > best.get(node, float("inf")):
                continue
            for nxt in sorted(self.links[node]):
                c = cost + self.aisles[nxt].length_m
                if c < best.get(nxt, float("inf")):
                    best[nxt] = c
                    heapq.heappush(heap, (c, nxt, path + (nxt,)))
        raise RouteError(f"no route from {start} to {goal}")

    def length(self, path):
        return sum(self.aisles[a].length_m for a in path)


def demo_layout():
    layout = Layout()
    for name, length in (("A", 10), ("B", 12), ("C", 8), ("D", 20), ("X", 4)):
        layout.add_aisle(name, length)
    for a, b in (("A", "X"), ("X", "B"), ("B", "C"), ("C", "D"), ("A", "D")):
        layout.connect(a, b)
    return layout
