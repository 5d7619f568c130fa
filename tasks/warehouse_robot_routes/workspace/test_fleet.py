import threading

import pytest

from fleet import Fleet
from grid import RouteError, demo_layout


def test_shortest_route():
    layout = demo_layout()
    assert layout.route("A", "C") == ["A", "X", "B", "C"]
    assert layout.route("D", "B") == ["D", "C", "B"]
    with pytest.raises(RouteError):
        layout.connect("A", "Q")


def test_single_mission_drains_battery():
    fleet = Fleet(demo_layout())
    fleet.add("r1", "A")
    assert fleet.mission("r1", "C") == ["A", "X", "B", "C"]
    assert fleet.robots["r1"].battery_pct == 97.6
    assert fleet.locks.busy() == {}


def test_disjoint_missions_run_together():
    fleet = Fleet(demo_layout())
    fleet.add("r1", "A")
    fleet.add("r2", "C")
    assert fleet.run_parallel([("r1", "X"), ("r2", "D")]) == [False, False]
    assert sorted(n for n, _, _ in fleet.completed) == ["r1", "r2"]


class Crossing:
    """Holds each robot after its first aisle until the other robot has one too."""

    def __init__(self, fleet):
        self.first = {}
        self.both = threading.Event()
        self.lock = threading.Lock()
        fleet.locks.on_acquired = self

    def __call__(self, robot, aisle):
        with self.lock:
            if robot in self.first:
                return
            self.first[robot] = aisle
            if len(self.first) == 2:
                self.both.set()
        self.both.wait(timeout=0.5)


def test_opposite_missions_both_complete():
    fleet = Fleet(demo_layout())
    fleet.add("r1", "A")
    fleet.add("r2", "C")
    Crossing(fleet)
    alive = fleet.run_parallel([("r1", "C"), ("r2", "A")])
    assert alive == [False, False], "robots blocked each other"
    assert sorted(n for n, _, _ in fleet.completed) == ["r1", "r2"]


def test_three_robots_crossing():
    fleet = Fleet(demo_layout())
    fleet.add("r1", "D")
    fleet.add("r2", "B")
    fleet.add("r3", "X")
    Crossing(fleet)
    alive = fleet.run_parallel([("r1", "B"), ("r2", "D"), ("r3", "A")])
    assert not any(alive), "robots blocked each other"
    assert {n: r.at for n, r in fleet.robots.items()} == {"r1": "B", "r2": "D", "r3": "A"}


def test_low_robots_recharge_after_a_crossing():
    from charging import ChargerBank

    fleet = Fleet(demo_layout())
    fleet.add("r1", "A")
    fleet.add("r2", "C")
    fleet.robots["r1"].battery_pct = 30.0
    Crossing(fleet)
    assert fleet.run_parallel([("r1", "C"), ("r2", "A")]) == [False, False]
    bank = ChargerBank(["dock1"])
    assert fleet.recharge(bank) == {"r1": "dock1"}
    assert fleet.robots["r1"].battery_pct == 100.0
    assert bank.free() == ["dock1"]
