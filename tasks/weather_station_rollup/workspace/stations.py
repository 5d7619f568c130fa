"""Station readings as they arrive from the loggers."""
import csv
import io
from dataclasses import dataclass

FIELDS = ("station", "day", "hour", "temp_c", "rain_mm")


@dataclass(frozen=True)
class Reading:
    station: str
    day: str
    hour: int
    temp_c: float
    rain_mm: float

    def __post_init__(self):
        if not 0 <= self.hour <= 23:
            raise ValueError(f"hour {self.hour} out of range")
        if self.rain_mm < 0:
            raise ValueError("rain_mm must not be negative")


class ReadingStore:
    """Raw logger files, one CSV text per station; parsing is the slow part that callers cache."""

    def __init__(self):
        self._files = {}
        self.parses = 0

    def upload(self, station, text):
        self._files[station] = text

    def parse(self, station, day):
        self.parses += 1
        text = self._files.get(station, "")
        out = []
        for row in csv.DictReader(io.StringIO(text), fieldnames=FIELDS):
            if row["station"] == "station" or row["day"] != day:
                continue
            out.append(Reading(row["station"], row["day"], int(row["hour"]), float(row["temp_c"]), float(row["rain_mm"])))
        out.sort(key=lambda r: r.hour)
        return out
