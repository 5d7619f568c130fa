"""Train movements over a set route, with sectional release behind the train."""


class MovementError(Exception):
    pass


class TrainMovement:
    def __init__(self, interlocking, headcode, route_name, start):
        self.ixl = interlocking
        self.headcode = headcode
        self.route = interlocking.routes[route_name]
        if interlocking.signals[self.route.entry_signal].route != route_name:
            raise MovementError(f"{headcode}: route {route_name} is not set")
        self.position = start
        self.visited = [start]
        self._ahead = list(self.route.blocks)
        interlocking.layout.occupy(start)

    def step(self):
        if not self._ahead:
            raise MovementError(f"{self.headcode}: already at the end of {self.route.name}")
        nxt = self._ahead.pop(0)
        layout = self.ixl.layout
        if nxt not in layout.links[self.position]:
            raise MovementError(f"{self.headcode}: {nxt} does not follow {self.position}")
        layout.occupy(nxt)
        layout.occupy(self.position, False)
        if len(self.visited) == 1:
            self.ixl.signals[self.route.entry_signal].to_danger()
        behind = self.position
        if self.ixl.locks.get(behind) == self.route.name:
            del self.ixl.locks[behind]
        self.position = nxt
        self.visited.append(nxt)
        return nxt

    def finish(self):
        while self._ahead:
            self.step()
        self.ixl.release(self.route.name)
        self.ixl.layout.occupy(self.position, False)
        return list(self.visited)
