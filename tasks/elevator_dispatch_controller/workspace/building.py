from dataclasses import dataclass, field


class CarUnavailable(Exception):
    pass


@dataclass
class HallCall:
    floor: int
    direction: str  # "up" or "down"
    caller: str = ""

    def __post_init__(self):
        if self.direction not in ("up", "down"):
            raise ValueError(f"bad direction {self.direction!r}")


@dataclass
class Car:
    name: str
    floor: int = 0
    capacity: int = 8
    in_service: bool = True
    stops: list = field(default_factory=list)
    assigned: list = field(default_factory=list)

    @property
    def idle(self):
        return self.in_service and not self.assigned

    def distance_to(self, floor):
        return abs(self.floor - floor)

    def assign(self, call):
        if not self.in_service:
            raise CarUnavailable(self.name)
        self.assigned.append(call)
        if call.floor not in self.stops:
            self.stops.append(call.floor)

    def arrive(self, floor):
        self.floor = floor
        served = [c for c in self.assigned if c.floor == floor]
        self.assigned = [c for c in self.assigned if c.floor != floor]
        self.stops = [s for s in self.stops if s != floor]
        return served


class Building:
    def __init__(self, floors, car_names):
        if floors < 2:
            raise ValueError("a building needs at least two floors")
        self.floors = floors
        self.cars = {name: Car(name) for name in car_names}

    def car(self, name):
        return self.cars[name]

    def check_floor(self, floor):
        if not 0 <= floor < self.floors:
            raise ValueError(f"floor {floor} outside 0..{self.floors - 1}")

    def take_out_of_service(self, name):
        car = self.cars[name]
        car.in_service = False
        pending = list(car.assigned)
        car.assigned.clear()
        car.stops.clear()
        return pending

    def in_service(self):
        return sorted(name for name, car in self.cars.items() if car.in_service)

    def return_to_service(self, name, floor=0):
        self.check_floor(floor)
        car = self.cars[name]
        car.in_service = True
        car.floor = floor

    def summary(self):
        return {
            name: {"floor": car.floor, "stops": sorted(car.stops), "in_service": car.in_service}
            for name, car in sorted(self.cars.items())
        }
