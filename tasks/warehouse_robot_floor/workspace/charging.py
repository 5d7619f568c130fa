"""Charging: robots below the threshold are sent to the nearest free charger."""


class ChargingBay:
    def __init__(self, chargers, threshold=20):
        self.chargers = {cell: None for cell in chargers}
        self.threshold = threshold

    def needs_charge(self, robot):
        return robot.battery < self.threshold

    def send(self, robot):
        """Reserve the nearest free charger for the robot and drive it there; returns the cell or None."""
        floor = robot.fleet.floor()
        options = []
        for cell, occupant in self.chargers.items():
            if occupant is None:
                route = floor.route(robot.position, cell)
                if route is not None:
                    options.append((len(route), cell))
        for _, cell in sorted(options):
            if robot.go(cell):
                self.chargers[cell] = robot.name
                return cell
        return None

    def charge(self, robot, minutes, rate_per_minute=2):
        robot.battery = min(100, robot.battery + minutes * rate_per_minute)
        if robot.battery == 100:
            for cell, occupant in self.chargers.items():
                if occupant == robot.name:
                    self.chargers[cell] = None
            robot.arrive()
        return robot.battery
