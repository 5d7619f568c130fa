import threading

from charging import ChargingBay
from fleet import Fleet
from floor import parse_floor
from orders import Pick, assign, unassigned
from robots import Robot

LAYOUT = """
.....
.#.#.
.#.#.
.....
"""


class SlowLoader:
    """The warehouse system takes a while to send the map; both robots ask for it at once."""

    def __init__(self, parties):
        self.barrier = threading.Barrier(parties, timeout=0.5)
        self.calls = 0

    def __call__(self):
        self.calls += 1
        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            pass
        return parse_floor(LAYOUT)


def test_route_around_shelving():
    floor = parse_floor(LAYOUT)
    route = floor.route((1, 0), (1, 2))
    assert route[0] == (1, 0) and route[-1] == (1, 2) and len(route) == 5


def test_reservation_conflict():
    fleet = Fleet(lambda: parse_floor(LAYOUT))
    a = fleet.register(Robot("r1", (0, 0)))
    b = fleet.register(Robot("r2", (3, 0)))
    assert a.go((0, 4))
    assert not b.go((0, 2))
    assert b.log == ["wait: r2: (0, 0) reserved by r1"]
    assert fleet.status() == ["r1 at (0, 4) battery 96% driving", "r2 at (3, 0) battery 100% idle"]
    a.arrive()
    assert b.go((0, 2))


def test_map_is_loaded_once():
    fleet = Fleet(lambda: parse_floor(LAYOUT))
    fleet.floor()
    fleet.floor()
    assert fleet.loads == 1


def test_robots_starting_together_share_one_map():
    loader = SlowLoader(parties=2)
    fleet = Fleet(loader)
    a = fleet.register(Robot("r1", (0, 0)))
    b = fleet.register(Robot("r2", (0, 4)))
    results = {}
    threads = [
        threading.Thread(target=lambda: results.setdefault("r1", a.go((3, 0))), daemon=True),
        threading.Thread(target=lambda: results.setdefault("r2", b.go((3, 4))), daemon=True),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(2)
    assert not any(t.is_alive() for t in threads)
    assert results == {"r1": True, "r2": True}
    assert fleet.loads == 1
    assert sorted(fleet.reservations()) == ["r1", "r2"]


def test_crossing_robots_cannot_both_reserve():
    loader = SlowLoader(parties=2)
    fleet = Fleet(loader)
    a = fleet.register(Robot("r1", (0, 0)))
    b = fleet.register(Robot("r2", (0, 4)))
    results = {}
    threads = [
        threading.Thread(target=lambda: results.setdefault("r1", a.go((0, 4))), daemon=True),
        threading.Thread(target=lambda: results.setdefault("r2", b.go((0, 0))), daemon=True),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(2)
    assert sorted(results.values()) == [False, True], f"both robots were given the top aisle: {results}"


def test_assign_nearest():
    fleet = Fleet(lambda: parse_floor(LAYOUT))
    fleet.register(Robot("r1", (0, 0)))
    fleet.register(Robot("r2", (3, 4)))
    picks = [Pick("o1", (2, 4), 3), Pick("o2", (2, 4), 1), Pick("o3", (1, 0), 2)]
    plan = assign(fleet, picks)
    assert plan == {"o1": "r2", "o2": "r1"}
    assert unassigned(picks, plan) == ["o3"]


def test_low_robot_goes_to_charge():
    fleet = Fleet(lambda: parse_floor(LAYOUT))
    robot = fleet.register(Robot("r3", (3, 2), battery=15))
    bay = ChargingBay([(0, 0), (3, 4)])
    assert bay.needs_charge(robot)
    assert bay.send(robot) == (3, 4)
    assert robot.battery == 13
    assert bay.charge(robot, 30) == 73
    assert bay.charge(robot, 30) == 100
    assert bay.chargers[(3, 4)] is None and fleet.reservations() == {}
