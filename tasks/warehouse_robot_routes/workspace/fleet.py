import threading

from charging import ChargerBank, minutes_to_full
from grid import Layout
from reservations import AisleLocks
from robots import Robot


class Fleet:
    def __init__(self, layout: Layout):
        self.layout = layout
        self.locks = AisleLocks(layout.aisles)
        self.robots = {}
        self.completed = []
        self._done = threading.Lock()

    def add(self, name, at):
        self.robots[name] = Robot(name, at)

    def mission(self, name, goal):
        robot = self.robots[name]
        path = self.layout.route(robot.at, goal)
        self.locks.reserve(name, path)
        try:
            metres = robot.drive(self.layout, path)
        finally:
            self.locks.release(name, path)
        with self._done:
            self.completed.append((name, goal, metres))
        return path

    def recharge(self, bank: ChargerBank, threshold=50.0):
        plugged = {}
        for name in sorted(self.robots):
            robot = self.robots[name]
            if robot.battery_pct >= threshold:
                continue
            dock = bank.plug_in(robot)
            if dock is None:
                break
            bank.charge(robot, dock, minutes_to_full(robot, bank.rate))
            plugged[name] = dock
        for dock in plugged.values():
            bank.unplug(dock)
        return plugged

    def run_parallel(self, missions, timeout=3.0):
        threads = [threading.Thread(target=self.mission, args=m, daemon=True) for m in missions]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=timeout)
        return [t.is_alive() for t in threads]
