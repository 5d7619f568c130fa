"""Vineyard field sensors and the readings their gateway forwards."""
from dataclasses import dataclass

KINDS = {
    "air_temp": ("C", -30.0, 55.0),
    "leaf_wetness": ("%", 0.0, 100.0),
    "soil_moisture": ("%", 0.0, 60.0),
    "humidity": ("%", 0.0, 100.0),
}


@dataclass(frozen=True)
class Reading:
    block: str
    sensor: str
    kind: str
    value: float
    minute: int

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.sensor}: unknown kind {self.kind!r}")
        _, low, high = KINDS[self.kind]
        if not low <= self.value <= high:
            raise ValueError(f"{self.sensor}: {self.kind} {self.value} outside [{low}, {high}]")

    @property
    def topic(self):
        return f"{self.block}/{self.kind}"

    @property
    def unit(self):
        return KINDS[self.kind][0]


def parse_packet(text):
    """Gateway packet: 'minute;block;sensor;kind=value;kind=value...'."""
    minute, block, sensor, *pairs = text.strip().split(";")
    readings = []
    for pair in pairs:
        kind, value = pair.split("=")
        readings.append(Reading(block, sensor, kind, float(value), int(minute)))
    return readings
