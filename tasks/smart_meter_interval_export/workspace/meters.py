"""Smart meters and the register readings they report every half hour."""
from dataclasses import dataclass
from datetime import timedelta, timezone


@dataclass(frozen=True)
class Meter:
    meter_id: str
    utc_offset_hours: int
    tariff: str = "tou"

    @property
    def tz(self):
        return timezone(timedelta(hours=self.utc_offset_hours))


@dataclass(frozen=True)
class Reading:
    meter_id: str
    at: object
    register_kwh: float

    def __post_init__(self):
        if self.at.tzinfo is None:
            raise ValueError(f"{self.meter_id}: reading time must carry its UTC offset")
        if self.register_kwh < 0:
            raise ValueError(f"{self.meter_id}: negative register")


def half_hourly(meter, start, registers):
    """Readings every 30 minutes from `start` (an aware datetime) with the given register values."""
    return [Reading(meter.meter_id, start + timedelta(minutes=30 * i), kwh) for i, kwh in enumerate(registers)]
