import threading

import pytest

from building import Building
from dispatcher import Dispatcher, NoCarAvailable
from telemetry import Telemetry
from zones import ZoneMap


def make(cars=("A", "B", "C"), floors=12, telemetry=None):
    return Dispatcher(Building(floors, cars), telemetry)


def test_nearest_idle_car_is_chosen():
    d = make()
    d.building.car("B").floor = 7
    assert d.request(8, "down", "lobby-8") == "B"


def test_busy_car_is_skipped_for_an_idle_one():
    d = make(cars=("A", "B"))
    d.request(0, "up", "p1")
    assert d.request(1, "up", "p2") == "B"
    assert d.load() == {"A": 1, "B": 1}


def test_arrival_serves_calls():
    d = make()
    d.request(0, "up", "p1")
    assert [c.caller for c in d.arrive("A", 0)] == ["p1"]
    assert d.building.car("A").idle
    assert d.telemetry.count("served") == 1


def test_evacuated_calls_move_to_other_cars():
    d = make(cars=("A", "B"))
    d.request(3, "up", "p1")
    assert d.evacuate("A") == ["B"]
    with pytest.raises(NoCarAvailable):
        d.evacuate("B")


def test_express_car_only_serves_its_zone():
    zones = ZoneMap()
    zones.add_zone("low", 0, 5)
    zones.add_zone("high", 6, 11)
    zones.restrict("A", "high")
    d = Dispatcher(Building(12, ("A", "B")), zones=zones)
    assert d.request(2, "up", "p1") == "B"
    assert d.request(9, "down", "p2") == "A"
    assert d.zone_report()["A"] == {"floor": 0, "zone": "low", "pending": 1}


def test_floor_is_checked():
    with pytest.raises(ValueError):
        make(floors=4).request(9, "up")


class RendezvousTelemetry(Telemetry):
    """Holds the first caller at the candidate stage until a second caller gets there too."""

    def __init__(self):
        super().__init__()
        self.first_waiting = threading.Event()
        self.second_arrived = threading.Event()

    def record(self, kind, **details):
        super().record(kind, **details)
        if kind != "candidate":
            return
        if not self.first_waiting.is_set():
            self.first_waiting.set()
            self.second_arrived.wait(timeout=0.5)
        else:
            self.second_arrived.set()


def test_simultaneous_calls_get_different_idle_cars():
    telemetry = RendezvousTelemetry()
    d = make(cars=("A", "B"), telemetry=telemetry)
    results = {}

    def call(name, floor):
        results[name] = d.request(floor, "up", name)

    first = threading.Thread(target=call, args=("p1", 0), daemon=True)
    first.start()
    assert telemetry.first_waiting.wait(timeout=2)
    second = threading.Thread(target=call, args=("p2", 0), daemon=True)
    second.start()
    first.join(timeout=3)
    second.join(timeout=3)
    assert not first.is_alive() and not second.is_alive(), "dispatch threads hung"
    assert sorted(results.values()) == ["A", "B"]
    assert d.load() == {"A": 1, "B": 1}


def test_many_parallel_calls_spread_over_idle_cars():
    telemetry = RendezvousTelemetry()
    d = make(cars=("A", "B", "C"), telemetry=telemetry)
    names = []
    lock = threading.Lock()

    def call(i):
        car = d.request(5, "down", f"p{i}")
        with lock:
            names.append(car)

    threads = [threading.Thread(target=call, args=(i,), daemon=True) for i in range(3)]
    threads[0].start()
    assert telemetry.first_waiting.wait(timeout=2)
    for t in threads[1:]:
        t.start()
    for t in threads:
        t.join(timeout=3)
    assert not any(t.is_alive() for t in threads), "dispatch threads hung"
    assert sorted(names) == ["A", "B", "C"]


def test_car_returns_to_service():
    d = make(cars=("A", "B"))
    d.evacuate("A")
    d.building.return_to_service("A", floor=4)
    assert d.building.in_service() == ["A", "B"]
    assert d.request(4, "up", "p9") == "A"
    assert d.building.summary()["A"] == {"floor": 4, "stops": [4], "in_service": True}
