from dataclasses import dataclass, field


@dataclass
class Vehicle:
    plate: str
    length_m: float
    height_m: float

    def to_dict(self):
        return {"plate": self.plate, "length_m": self.length_m, "height_m": self.height_m}

    @classmethod
    def from_dict(cls, d):
        return cls(d["plate"], float(d["length_m"]), float(d["height_m"]))


@dataclass
class Manifest:
    sailing: str
    vessel: str
    lanes: dict = field(default_factory=dict)  # lane number -> list[Vehicle]
    cabins: dict = field(default_factory=dict)  # cabin number -> booking reference
    passengers: list = field(default_factory=list)

    def used_length(self, lane):
        return sum(v.length_m for v in self.lanes.get(lane, []))

    def cabin_free(self, cabin):
        return cabin not in self.cabins

    def headcount(self):
        return len(self.passengers)

    def to_dict(self):
        return {
            "sailing": self.sailing,
            "vessel": self.vessel,
            "lanes": {lane: [v.to_dict() for v in vs] for lane, vs in self.lanes.items()},
            "cabins": dict(self.cabins),
            "passengers": list(self.passengers),
        }

    @classmethod
    def from_dict(cls, d):
        return cls(
            sailing=d["sailing"],
            vessel=d["vessel"],
            lanes={lane: [Vehicle.from_dict(v) for v in vs] for lane, vs in d["lanes"].items()},
            cabins=dict(d["cabins"]),
            passengers=list(d["passengers"]),
        )
