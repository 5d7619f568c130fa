"""The pool of bench calibrations shared by every acquisition job.

Jobs never edit the pool directly: they check out a working copy, adjust it
for their conditions (ambient temperature, supply voltage) and use it for the
duration of the run. The pool keeps the bench values.
"""
import copy

from calibration import Calibration


class UnknownSensor(KeyError):
    pass


class CalibrationPool:
    def __init__(self):
        self._entries: dict[str, Calibration] = {}

    def register(self, calibration: Calibration) -> None:
        if calibration.sensor_id in self._entries:
            raise ValueError(f"sensor {calibration.sensor_id} already calibrated")
        self._entries[calibration.sensor_id] = calibration

    def sensors(self) -> list[str]:
        return sorted(self._entries)

    def bench(self, sensor_id: str) -> Calibration:
        """The bench calibration itself, read-only by convention."""
        try:
            return self._entries[sensor_id]
        except KeyError:
            raise UnknownSensor(sensor_id) from None

    def checkout(self, sensor_id: str) -> Calibration:
        """A working copy the caller may adjust freely."""
        return copy.deepcopy(self.bench(sensor_id))
