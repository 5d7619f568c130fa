"""The rental fleet: cars by category and station."""
from dataclasses import dataclass

CATEGORIES = ("mini", "compact", "estate", "van")


class NoCarAvailable(RuntimeError):
    pass


@dataclass(frozen=True)
class Car:
    plate: str
    category: str
    station: str
    mileage: int = 0


class Fleet:
    def __init__(self, cars):
        for car in cars:
            if car.category not in CATEGORIES:
                raise ValueError(f"{car.plate}: unknown category {car.category!r}")
        self.cars = {car.plate: car for car in cars}

    def at_station(self, station, category):
        return sorted((c for c in self.cars.values() if c.station == station and c.category == category), key=lambda c: c.mileage)

    def pick(self, station, category, rented_plates):
        for car in self.at_station(station, category):
            if car.plate not in rented_plates:
                return car
        raise NoCarAvailable(f"no {category} free at {station}")

    def move(self, plate, station, mileage):
        car = self.cars[plate]
        self.cars[plate] = Car(car.plate, car.category, station, mileage)

    def categories_at(self, station):
        return sorted({c.category for c in self.cars.values() if c.station == station}, key=CATEGORIES.index)
