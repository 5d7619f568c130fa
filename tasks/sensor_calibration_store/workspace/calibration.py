"""Per-channel linear calibration for analogue sensor inputs.

Each channel of the data logger is wired to one sensor. The raw ADC reading is turned into a physical value with
``value = raw * gain + offset``; channels that were never calibrated pass through unchanged.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Coefficients:
    gain: float = 1.0
    offset: float = 0.0

    def apply(self, raw: float) -> float:
        return raw * self.gain + self.offset


IDENTITY = Coefficients()


class CalibrationTable:
    """Maps a logger channel number to its calibration coefficients."""

    def __init__(self, entries=None):
        self._entries = dict(entries or {})

    def set(self, channel: int, gain: float, offset: float) -> None:
        if not isinstance(channel, int) or channel < 0:
            raise ValueError(f"channel must be a non-negative int, got {channel!r}")
        self._entries[channel] = Coefficients(gain, offset)

    def coefficients(self, channel: int) -> Coefficients:
        return self._entries.get(channel, IDENTITY)

    def channels(self):
        return sorted(self._entries)

    def items(self):
        return self._entries.items()

    def __len__(self):
        return len(self._entries)
