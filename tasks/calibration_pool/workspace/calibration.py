"""Sensor calibration records.

A calibration maps a raw ADC reading to a physical value with a polynomial
whose coefficients were measured on the bench. Coefficients are kept in a
dict keyed by term name so new terms can be added without schema changes.
"""
from dataclasses import dataclass, field
from datetime import date


@dataclass
class Calibration:
    sensor_id: str
    unit: str
    coefficients: dict = field(default_factory=dict)
    measured_on: date = date(2024, 1, 1)
    notes: list = field(default_factory=list)

    def apply(self, raw: float) -> float:
        """Convert a raw reading: offset + gain * raw + quadratic * raw**2."""
        c = self.coefficients
        return c.get("offset", 0.0) + c.get("gain", 1.0) * raw + c.get("quadratic", 0.0) * raw * raw

    def shifted(self, delta: float) -> None:
        """Move the zero point of this calibration by `delta` (in output units)."""
        self.coefficients["offset"] = self.coefficients.get("offset", 0.0) + delta

    def scaled(self, factor: float) -> None:
        """Scale the linear term, e.g. after a reference-voltage change."""
        self.coefficients["gain"] = self.coefficients.get("gain", 1.0) * factor
