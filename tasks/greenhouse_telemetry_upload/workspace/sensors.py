"""The greenhouse's sensor kinds: what each measures, its plausible range and its calibration offset.

Sensor ids are `<kind>-<n>`, e.g. `soil-1` or `air-temp-3`.
"""
from dataclasses import dataclass


class UnknownSensor(KeyError):
    pass


@dataclass(frozen=True)
class SensorKind:
    name: str
    unit: str
    low: float
    high: float
    decimals: int = 1


KINDS = {
    "soil": SensorKind("soil", "%", 0.0, 100.0),
    "air-temp": SensorKind("air-temp", "C", -20.0, 60.0),
    "humidity": SensorKind("humidity", "%", 0.0, 100.0),
    "co2": SensorKind("co2", "ppm", 0.0, 5000.0, decimals=0),
}


def kind_of(sensor_id):
    name, sep, number = sensor_id.rpartition("-")
    if not sep or not number.isdigit() or name not in KINDS:
        raise UnknownSensor(sensor_id)
    return KINDS[name]


class Calibration:
    """Per-sensor offsets measured at the last service visit, added to raw values."""

    def __init__(self, offsets=None):
        self.offsets = dict(offsets or {})

    def apply(self, sensor_id, value):
        kind = kind_of(sensor_id)
        return round(value + self.offsets.get(sensor_id, 0.0), kind.decimals)

    def in_range(self, sensor_id, value):
        kind = kind_of(sensor_id)
        return kind.low <= value <= kind.high


def load_offsets(text):
    """Calibration offsets from the service sheet: one `<sensor id> <offset>` per line, `#` starts a comment."""
    offsets = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2:
            raise ValueError(f"line {number}: expected '<sensor> <offset>', got {raw!r}")
        kind_of(parts[0])
        offsets[parts[0]] = float(parts[1])
    return Calibration(offsets)


def describe(sensor_id, value):
    kind = kind_of(sensor_id)
    return f"{sensor_id}: {value:.{kind.decimals}f} {kind.unit}"
