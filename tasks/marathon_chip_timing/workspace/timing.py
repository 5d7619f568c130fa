from dataclasses import dataclass, field
from datetime import timedelta


class TimingError(ValueError):
    pass


@dataclass
class Runner:
    bib: int
    name: str
    category: str
    splits: dict = field(default_factory=dict)  # checkpoint km -> elapsed timedelta
    finish: timedelta | None = None

    def record(self, km, elapsed):
        if elapsed <= timedelta(0):
            raise TimingError(f"bib {self.bib}: non-positive time at {km} km")
        earlier = [t for k, t in self.splits.items() if k < km]
        if earlier and elapsed <= max(earlier):
            raise TimingError(f"bib {self.bib}: split at {km} km is not after the previous one")
        self.splits[km] = elapsed

    def pace_per_km(self, distance_km):
        if self.finish is None:
            return None
        return self.finish / distance_km


def format_pace(td):
    total = td.total_seconds()
    minutes, seconds = divmod(total, 60)
    return f"{int(minutes)}:{seconds:04.1f}/km"


def chip_time(gun_start, crossed_start, crossed_finish):
    """Chip time runs from crossing the start mat, not from the gun."""
    if crossed_start < gun_start:
        raise TimingError("crossed the start mat before the gun")
    if crossed_finish <= crossed_start:
        raise TimingError("finish before start")
    return crossed_finish - crossed_start


def age_category(age, sex):
    if age < 18:
        raise TimingError("runners must be adults")
    if age < 35:
        band = "S"
    elif age < 50:
        band = "V40"
    else:
        band = "V50"
    return f"{sex}{'' if band == 'S' else band}"


def predicted_finish(split_elapsed, split_km, distance_km, fade=1.06):
    """Riegel-style projection from a split time."""
    ratio = distance_km / split_km
    return timedelta(seconds=split_elapsed.total_seconds() * ratio ** fade)
