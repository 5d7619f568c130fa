from dataclasses import dataclass


class UnknownSlot(KeyError):
    pass


@dataclass(frozen=True)
class Lane:
    number: int
    length_m: float
    max_height_m: float


@dataclass(frozen=True)
class Cabin:
    number: int
    berths: int
    deck: str


@dataclass(frozen=True)
class Vessel:
    name: str
    lanes: tuple
    cabins: tuple

    def lane(self, number):
        for lane in self.lanes:
            if lane.number == number:
                return lane
        raise UnknownSlot(f"{self.name} has no lane {number}")

    def cabin(self, number):
        for cabin in self.cabins:
            if cabin.number == number:
                return cabin
        raise UnknownSlot(f"{self.name} has no cabin {number}")

    @property
    def deck_length_m(self):
        return sum(lane.length_m for lane in self.lanes)


def build_vessel(name, lane_specs, cabin_specs):
    lanes = tuple(Lane(n, length, height) for n, length, height in lane_specs)
    cabins = tuple(Cabin(n, berths, deck) for n, berths, deck in cabin_specs)
    if len({l.number for l in lanes}) != len(lanes):
        raise ValueError("duplicate lane numbers")
    if len({c.number for c in cabins}) != len(cabins):
        raise ValueError("duplicate cabin numbers")
    return Vessel(name, lanes, cabins)


def island_hopper():
    return build_vessel(
        "MV Island Hopper",
        [(1, 60.0, 4.5), (2, 60.0, 4.5), (3, 45.0, 2.1), (4, 45.0, 2.1)],
        [(101, 2, "A"), (102, 2, "A"), (201, 4, "B"), (202, 4, "B")],
    )
