import threading

from building import Building, CarUnavailable, HallCall
from telemetry import Telemetry
from zones import ZoneMap


class NoCarAvailable(Exception):
    pass


def score(car, call):
    """Lower is better: distance, plus a penalty for cars already busy."""
    penalty = 0 if car.idle else 10 + 2 * len(car.assigned)
    return car.distance_to(call.floor) + penalty


class Dispatcher:
    def __init__(self, building: Building, telemetry: Telemetry | None = None, zones: ZoneMap | None = None):
        self.building = building
        self.zones = zones or ZoneMap()
        self.telemetry = telemetry or Telemetry()
        self._lock = threading.Lock()
        self.history = []

    def _candidates(self, call):
        cars = [
            c for c in self.building.cars.values() if c.in_service and self.zones.serves(c.name, call.floor)
        ]
        if not cars:
            raise NoCarAvailable(call)
        return sorted(cars, key=lambda c: (score(c, call), c.name))

    def _choose(self, call):
        for car in self._candidates(call):
            if car.idle:
                return car
        return self._candidates(call)[0]

    def request(self, floor, direction, caller=""):
        self.building.check_floor(floor)
        call = HallCall(floor, direction, caller)
        car = self._choose(call)
        self.telemetry.record("candidate", car=car.name, floor=floor, caller=caller)
        with self._lock:
            try:
                car.assign(call)
            except CarUnavailable:
                raise NoCarAvailable(call)
            self.history.append((caller, car.name))
        self.telemetry.record("assigned", car=car.name, floor=floor, caller=caller)
        return car.name

    def arrive(self, car_name, floor):
        with self._lock:
            served = self.building.car(car_name).arrive(floor)
        for call in served:
            self.telemetry.record("served", car=car_name, floor=floor, caller=call.caller)
        return served

    def evacuate(self, car_name):
        with self._lock:
            pending = self.building.take_out_of_service(car_name)
        moved = []
        for call in pending:
            moved.append(self.request(call.floor, call.direction, call.caller))
        return moved

    def zone_report(self):
        with self._lock:
            report = {}
            for name, car in sorted(self.building.cars.items()):
                zone = self.zones.zone_of(car.floor)
                report[name] = {"floor": car.floor, "zone": zone, "pending": len(car.assigned)}
            return report

    def load(self):
        with self._lock:
            return {name: len(car.assigned) for name, car in self.building.cars.items()}
