"""Wards, their beds, and who is in which bed."""
from dataclasses import dataclass, field


class NoBedAvailable(RuntimeError):
    pass


def ward_key(name):
    return " ".join(name.split()).lower()


@dataclass
class Ward:
    name: str
    beds: list
    isolation: set = field(default_factory=set)


class BedBoard:
    def __init__(self, wards):
        self.wards = {ward_key(w.name): w for w in wards}
        self.occupancy = {}
        self.history = []

    def ward(self, name):
        try:
            return self.wards[ward_key(name)]
        except KeyError:
            raise KeyError(f"no ward {name!r}") from None

    def free_beds(self, ward_name, isolation=False):
        ward = self.ward(ward_name)
        beds = [b for b in ward.beds if b not in self.occupancy]
        if isolation:
            beds = [b for b in beds if b in ward.isolation]
        return beds

    def assign(self, bed, patient):
        self.occupancy[bed] = patient
        self.history.append(("assign", bed, patient))

    def release(self, bed):
        patient = self.occupancy.pop(bed)
        self.history.append(("release", bed, patient))
        return patient

    def bed_of(self, patient):
        for bed, who in self.occupancy.items():
            if who == patient:
                return bed
        return None

    def census(self):
        out = {}
        for key, ward in sorted(self.wards.items()):
            taken = sum(1 for b in ward.beds if b in self.occupancy)
            out[ward.name] = (taken, len(ward.beds))
        return out
