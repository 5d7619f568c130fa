"""A weather station: raw logger samples in, calibrated readings out."""
from pathlib import Path

from calibration import CalibrationTable
from store import load_table, save_table


class WeatherStation:
    def __init__(self, name: str, table: CalibrationTable | None = None):
        self.name = name
        self.table = table or CalibrationTable()

    def calibrate(self, channel: int, gain: float, offset: float) -> None:
        self.table.set(channel, gain, offset)

    def reading(self, channel: int, raw: float) -> float:
        return round(self.table.coefficients(channel).apply(raw), 3)

    def snapshot(self, samples: dict) -> dict:
        """Calibrated values for a batch of ``{channel: raw}`` samples."""
        return {channel: self.reading(channel, raw) for channel, raw in samples.items()}

    def persist(self, directory: Path) -> Path:
        path = Path(directory) / f"{self.name}.calibration.json"
        save_table(self.table, path)
        return path

    @classmethod
    def restore(cls, name: str, directory: Path) -> "WeatherStation":
        return cls(name, load_table(Path(directory) / f"{name}.calibration.json"))
