"""The concert hall: sections, rows and seats."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Section:
    code: str
    rows: int
    seats_per_row: int
    accessible: bool = False

    @property
    def capacity(self):
        return self.rows * self.seats_per_row

    def seat_ids(self):
        return [f"{self.code}-{chr(65 + r)}{s}" for r in range(self.rows) for s in range(1, self.seats_per_row + 1)]


HALL = {
    s.code: s
    for s in (
        Section("STALLS", rows=4, seats_per_row=6),
        Section("CIRCLE", rows=2, seats_per_row=5),
        Section("BOX", rows=1, seats_per_row=4, accessible=True),
    )
}


def section_of(seat_id):
    code = seat_id.split("-")[0]
    if code not in HALL:
        raise KeyError(f"no section {code}")
    return HALL[code]
