"""Robots: each plans a route on the shared floor and reserves it before driving."""
from floor import CellTaken


class Robot:
    def __init__(self, name, position, battery=100):
        self.name = name
        self.position = position
        self.battery = battery
        self.fleet = None
        self.route = None
        self.log = []

    def plan(self, goal, floor=None):
        floor = floor or self.fleet.floor()
        route = floor.route(self.position, goal)
        if route is None:
            raise ValueError(f"{self.name}: no route to {goal}")
        return route

    def go(self, goal):
        """Plan, reserve and drive to goal; returns True, or False when the route is taken."""
        floor = self.fleet.floor()
        route = self.plan(goal, floor)
        cost = len(route) - 1
        if cost > self.battery:
            raise ValueError(f"{self.name}: needs {cost} battery, has {self.battery}")
        try:
            floor.reserve(self.name, route)
        except CellTaken as exc:
            self.log.append(f"wait: {exc}")
            return False
        self.route = route
        self.position = goal
        self.battery -= cost
        self.log.append(f"drove {cost} cells to {goal}")
        return True

    def arrive(self):
        self.fleet.floor().release(self.name)
        self.route = None
